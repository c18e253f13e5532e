import { expect, messageBox, newSession, openApp, send, sidebar, test, transcript } from './support/fixtures';

// The demo agent in `--auth required` mode (src/agents/demo/auth.ts): it refuses session/new
// until it is signed in. Set before each test's `serve` starts, and only for this file.
const DEMO_ARGS_ENV = 'SWITCHBOARD_DEMO_AGENT_ARGS';
let savedArgs: string | undefined;
test.beforeAll(() => {
  savedArgs = process.env[DEMO_ARGS_ENV];
  process.env[DEMO_ARGS_ENV] = '--auth required';
  delete process.env.SWITCHBOARD_DEMO_API_KEY;
});
test.afterAll(() => {
  if (savedArgs === undefined) delete process.env[DEMO_ARGS_ENV];
  else process.env[DEMO_ARGS_ENV] = savedArgs;
});

const panel = (page: Parameters<typeof openApp>[0]) => page.getByRole('region', { name: 'Sign in' });

test.describe('signing in where the person is', () => {
  test('a session that needs sign-in says so, a message is refused, and the sign-in button starts it', async ({ page, host }) => {
    await openApp(page, host.url());
    await newSession(page);
    await expect(sidebar(page)).toContainText('Needs sign-in');
    await expect(panel(page)).toContainText('Authentication required');
    await expect(panel(page).getByLabel('SWITCHBOARD_DEMO_API_KEY')).toHaveAttribute('type', 'password');
    await expect(panel(page)).toContainText('switchboard-demo-login --user me');

    // A message does not start the same failing agent again: it is refused with what helps.
    await messageBox(page).fill('hello?');
    await messageBox(page).press('Enter');
    await expect(page.getByText('Sign in first')).toBeVisible();

    await panel(page).getByRole('button', { name: 'Log in to the demo' }).click();
    await expect(panel(page)).toHaveCount(0);
    await expect(sidebar(page)).toContainText('Idle');
    await expect(transcript(page)).toContainText('Signed in with Log in to the demo.');
    await messageBox(page).fill('');
    await send(page, 'after sign-in');
    await expect(transcript(page)).toContainText('Echo: after sign-in');
  });

  test('a failed session can be archived, restored and deleted', async ({ page, host }) => {
    await openApp(page, host.url());
    await newSession(page);
    await expect(sidebar(page)).toContainText('Needs sign-in');
    await page.getByRole('button', { name: 'Archive' }).click();
    await expect(sidebar(page).getByRole('link')).toHaveCount(0);
    await sidebar(page).getByText('Archived (1)').click();
    await sidebar(page).getByRole('link').click();
    await page.getByRole('button', { name: 'Restore' }).click();
    await expect(sidebar(page).getByRole('link')).toHaveCount(1);
    await expect(sidebar(page).getByText(/Archived \(/)).toHaveCount(0);

    await page.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete for good' }).click();
    await expect(sidebar(page).getByRole('link')).toHaveCount(0);
    await page.reload();
    await expect(page.getByRole('button', { name: 'New session' })).toBeEnabled();
    await expect(sidebar(page).getByRole('link')).toHaveCount(0);
  });

  test('in Settings, a terminal sign-in shows its exact command with Copy (headless), and Sign out ends the sign-in', async ({ page, host }) => {
    await openApp(page, host.url());
    await page.getByRole('button', { name: 'Settings' }).click();
    const settings = page.getByRole('dialog', { name: 'Settings' });
    await settings.getByRole('tab', { name: 'Agents' }).click();
    const demo = settings.getByRole('list', { name: 'Agents' }).getByRole('listitem', { name: 'Demo agent' });
    await expect(demo.getByRole('button', { name: 'Sign out' })).toHaveCount(0);
    await demo.getByRole('button', { name: 'Test' }).click();

    // ACP's terminal method, offered because Switchboard advertises auth.terminal: the agent's
    // own command with the method's arguments, to copy (a headless host opens no terminal).
    const terminal = demo.getByRole('listitem').filter({ hasText: 'Sign in in a terminal' });
    await expect(terminal.locator('code')).toHaveText(/demo-agent\.js( --data-dir \S+)? --auth required --login$/);
    await expect(terminal.getByRole('button', { name: 'Copy' })).toBeVisible();
    await expect(terminal.getByRole('button', { name: 'Run in a terminal' })).toHaveCount(0);

    // It said it can sign out (agentCapabilities.auth.logout): Sign out runs ACP logout on a probe.
    await demo.getByRole('button', { name: 'Sign out' }).click();
    await expect(demo).toContainText('Signed out of Demo agent.');
  });
});
