import { openApp, running, send, transcript } from '../e2e/support/fixtures';
import { currentEntry, expect, manifest, newSessionOn, test } from './support/interop';

/**
 * An agent that needs an account nobody has here: the window shows its refusal in its own
 * words and a Sign in panel with every method it listed (`authMethods` in
 * e2e-agents/agents.json, e.g. Gemini's "Log in with Google", "Gemini API key"). Signing in for
 * real needs an account; the demo agent's e2e (e2e/sign-in.e2e.ts) proves a session continues.
 */
for (const agent of manifest.agents.filter((a) => a.withoutAccount === 'sign-in')) {
  test(`${agent.name} without an account: the window shows its own refusal and that it needs a sign-in`, async ({ page, interop }) => {
    await openApp(page, interop.serve.url);
    await newSessionOn(page, agent);
    const panel = page.getByRole('region', { name: 'Sign in' });
    await expect(panel).toContainText(agent.signInError!);
    await expect(panel).toContainText(/sign in/i);
    // Nothing tells this agent it runs as root: no IS_SANDBOX hint for it.
    await expect(panel).not.toContainText('IS_SANDBOX');
    // By its exact name: an agent may also list a terminal variant ("ChatGPT (device code)") now
    // that Switchboard advertises terminal sign-in.
    for (const method of agent.authMethods) await expect(panel.getByRole('listitem').filter({ has: page.getByText(method, { exact: true }) })).toHaveCount(1);
    // Not "Asleep": a session that never started says it needs a sign-in.
    await expect(currentEntry(page)).not.toContainText('Asleep');
  });
}

/**
 * Agents whose session starts signed out (Claude's adapter says "Not logged in" in a status
 * notice) and refuse the first prompt. Today the window shows the refusal in the agent's words;
 * once issue 11's honest states land it is an error of that prompt, not of the agent's start:
 * tighten this to check the row's title and that the session stays usable.
 */
for (const agent of manifest.agents.filter((a) => a.promptRefusal)) {
  test(`${agent.name} without an account: a prompt is refused and the window shows the agent's own words`, async ({ page, interop }) => {
    await openApp(page, interop.serve.url);
    await newSessionOn(page, agent);
    await expect(currentEntry(page)).toContainText('Idle');
    await send(page, 'hello');
    // The refusal in the agent's words: as the Sign in panel where the agent lists sign-in
    // methods (Claude's adapter lists terminal ones since Switchboard advertises terminal
    // sign-in), else as the failed turn's note in the transcript.
    const error = page.getByRole('region', { name: 'Sign in' }).or(transcript(page).getByRole('note')).first();
    await expect(error).toContainText(agent.promptRefusal!);
    await expect(error).toContainText(/sign in/i);
    await expect(running(page)).toHaveCount(0);
  });
}
