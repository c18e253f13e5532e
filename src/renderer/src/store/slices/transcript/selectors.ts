import type { AppState } from '../../app-store';
import { composerSelectors } from '../composer/selectors';
import type { PendingSend } from '../composer/initial-state';
import { promptRowKey, type Row } from './rows';
import { recordOf } from '../../../../../shared/contract';

/** One row object per optimistic prompt, so its row re-renders only when the prompt changes. */
const pendingRows = new WeakMap<PendingSend, Row>();

function pendingRow(p: PendingSend): Row {
  let row = pendingRows.get(p);
  if (!row) {
    row = {
      type: 'user',
      key: promptRowKey(p.clientMessageId),
      text: p.text,
      pending: true,
      ...(p.content?.length ? { attachments: p.content.map((b) => recordOf(b)) } : {}),
    };
    pendingRows.set(p, row);
  }
  return row;
}

/** Row `index` of the view: the stored rows, then the current session's optimistic prompts. */
function rowAt(s: AppState, index: number): Row | undefined {
  const rows = s.transcript.rows;
  if (index < rows.count) return rows.at(index);
  const p = composerSelectors.pendingForCurrent(s)[index - rows.count];
  return p ? pendingRow(p) : undefined;
}

export const transcriptSelectors = {
  /** Same array while live events are appended in place: subscribe to `lastSeq` to see them. */
  events: (s: AppState) => s.transcript.events,
  lastSeq: (s: AppState) => s.transcript.lastSeq,
  /** Changes only when rows are added or regrouped (see RowList.layout). */
  layout: (s: AppState) => s.transcript.rows.layout,
  rowAt,
  /** The transcript shown belongs to the current session and its newest page is in. */
  isReady: (s: AppState) => s.transcript.loaded && s.transcript.sessionId === s.currentSessionId,
  isLoadingNewest: (s: AppState) =>
    s.currentSessionId !== undefined && !s.transcript.loaded && s.transcript.error === undefined,
  hasOlder: (s: AppState) => s.transcript.hasOlder,
  isLoadingOlder: (s: AppState) => s.transcript.loadingOlder,
  oldestSeq: (s: AppState) => s.transcript.oldestSeq,
  error: (s: AppState) => s.transcript.error,
  hasNewer: (s: AppState) => s.transcript.hasNewer,
  isLoadingNewer: (s: AppState) => s.transcript.loadingNewer,
  focus: (s: AppState) => s.transcript.focus,
  /** The row index showing event `seq`, if it is loaded. */
  rowIndexOfSeq: (s: AppState, seq: number): number | undefined => {
    const { oldestSeq, lastSeq, rows } = s.transcript;
    if (oldestSeq === undefined || seq < oldestSeq || seq > lastSeq) return undefined;
    return rows.rowOfEvent(seq - oldestSeq);
  },
};
