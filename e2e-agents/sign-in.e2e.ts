import { openApp, transcript } from '../e2e/support/fixtures';
import { expect, manifest, newSessionOn, test } from './support/interop';

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
