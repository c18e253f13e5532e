import { openApp, running, send, transcript } from '../e2e/support/fixtures';
import { currentEntry, expect, manifest, newSessionOn, test } from './support/interop';

/**
 * What the window shows today for an agent that needs an account nobody has here. Once the
 * sign-in UI lands (issue 11), tighten this: the session shows the methods the agent listed
 * (`authMethods` in e2e-agents/agents.json, e.g. Gemini's "Log in with Google", "Gemini API
 * key") as actions, an env-var method asks for its variable, and the failed session continues
 * after signing in.
 */
for (const agent of manifest.agents.filter((a) => a.withoutAccount === 'sign-in')) {
  test(`${agent.name} without an account: the window shows its own refusal and that it needs a sign-in`, async ({ page, interop }) => {
    await openApp(page, interop.serve.url);
    await newSessionOn(page, agent);
    const error = transcript(page).getByRole('note');
    await expect(error).toContainText(agent.signInError!);
    await expect(error).toContainText(/sign in/i);
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
    await expect(currentEntry(page)).toContainText('Active');
    await send(page, 'hello');
    const error = transcript(page).getByRole('note');
    await expect(error).toContainText(agent.promptRefusal!);
    await expect(error).toContainText(/sign in/i);
    await expect(running(page)).toHaveCount(0);
  });
}
