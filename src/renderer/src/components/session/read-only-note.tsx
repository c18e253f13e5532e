/** In place of the message box for an imported session: it has no agent session to send to. */
export function ReadOnlyNote() {
  return (
    <p className="read-only-note" role="note">
      This session was imported from a file: a read-only copy with no agent session, so it takes no messages. Fork is not available; start a new session to go on.
    </p>
  );
}
