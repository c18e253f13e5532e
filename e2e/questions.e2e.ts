import type { Page } from '@playwright/test';
import { expect, newSession, openApp, running, send, sidebar, test, transcript } from './support/fixtures';

const question = (page: Page, name: string) => page.getByRole('dialog', { name });

test.describe('questions from the agent', () => {
  test('a form question shows in both windows; one answers it (checked first, by keyboard), the other withdraws it', async ({ page, context, host }) => {
    await openApp(page, host.url());
    await newSession(page);
    await send(page, 'hello');
    await expect(transcript(page)).toContainText('Echo: hello');
    const other = await context.newPage();
    await openApp(other, host.url());
    await sidebar(other).getByRole('link', { name: /hello/ }).click();
    await expect(transcript(other)).toContainText('Echo: hello');

    await send(page, '/elicit');
    const mine = question(page, 'Deploy the demo');
    const theirs = question(other, 'Deploy the demo');
    await expect(mine).toBeVisible();
    await expect(theirs).toBeVisible();
    await expect(sidebar(page).getByRole('link', { name: /hello/ })).toBeVisible();
    // Every kind of field, each labelled by its title; defaults filled in.
    await expect(theirs.getByRole('textbox', { name: 'Project name' })).toHaveValue('demo');
    await expect(theirs.getByRole('radio', { name: 'eu' })).toBeChecked();
    await expect(theirs.getByRole('radio', { name: 'Medium' })).toBeVisible();
    await expect(theirs.getByRole('checkbox', { name: 'logs' })).toBeChecked();
    await expect(theirs.getByRole('spinbutton', { name: 'Replicas' })).toHaveValue('2');
    await expect(theirs.getByRole('checkbox', { name: 'I understand this is a demo' })).not.toBeChecked();

    // Submitted with mistakes: the reasons show beside the fields and the focus goes to the first.
    await theirs.getByRole('textbox', { name: 'Email' }).fill('not an email');
    await theirs.getByRole('spinbutton', { name: 'Replicas' }).fill('11');
    await theirs.getByRole('spinbutton', { name: 'Replicas' }).press('Enter');
    await expect(theirs.getByText('Must be an email address')).toBeVisible();
    await expect(theirs.getByText('Must be 10 or less')).toBeVisible();
    await expect(theirs.getByRole('textbox', { name: 'Email' })).toBeFocused();
    await expect(theirs.getByRole('textbox', { name: 'Email' })).toHaveAccessibleDescription('Must be an email address');
    await expect(mine).toBeVisible();

    // Fixed with the keyboard, then Enter submits.
    await other.keyboard.press('Control+A');
    await other.keyboard.type('ann@example.com');
    await theirs.getByRole('spinbutton', { name: 'Replicas' }).fill('3');
    await theirs.getByRole('checkbox', { name: 'I understand this is a demo' }).check();
    await theirs.getByLabel('Deploy token').fill('hunter22-secret');
    await theirs.getByRole('button', { name: 'Submit' }).click();

    await expect(theirs).toHaveCount(0);
    await expect(mine).toHaveCount(0);
    await expect(transcript(page)).toContainText('You answered:');
    await expect(transcript(page)).toContainText('email: "ann@example.com"');
    await expect(transcript(page)).toContainText('token: (received, 15 characters, not shown)');
    await expect(transcript(page).getByRole('region', { name: 'Question from the agent: Deploy the demo' })).toContainText(/Submitted — answered in (window|tab) \d/);
    await expect(transcript(page)).not.toContainText('hunter22-secret');
    await expect(running(page)).toHaveCount(0);
  });

  test('Decline and Cancel answer the agent so; the question leaves the sidebar’s waiting list', async ({ page, host }) => {
    await openApp(page, host.url());
    await newSession(page);
    await send(page, '/elicit');
    await question(page, 'Deploy the demo').getByRole('button', { name: 'Decline' }).click();
    await expect(transcript(page)).toContainText('You declined the question.');
    await send(page, '/elicit');
    await newSession(page);
    await expect(sidebar(page).getByRole('link', { name: /elicit/ })).toContainText('Waiting for your answer');
    await expect(page).toHaveTitle(/^\(1\) /);
    await sidebar(page).getByRole('link', { name: /elicit/ }).click();
    await question(page, 'Deploy the demo').getByRole('button', { name: 'Cancel' }).click();
    await expect(transcript(page)).toContainText('The question was cancelled.');
    await expect(page).toHaveTitle('Switchboard');
  });

  test('a URL question shows where it leads and opens it in a new tab only on the click, with no way back', async ({ page, context, host }) => {
    await openApp(page, host.url());
    await newSession(page);
    // A page that loads (the host's own), on an IP address: flagged, as any address like it.
    const { host: where, origin } = new URL(host.url());
    await send(page, `/elicit url ${origin}/elsewhere 300`);
    const dialog = question(page, 'The agent asks you to open a page');
    await expect(dialog).toBeVisible();
    await expect(dialog.locator('.question-host strong')).toHaveText(where);
    await expect(dialog.getByRole('list', { name: /may imitate another site/ })).toContainText('IP address');
    expect(context.pages()).toHaveLength(1);

    const opened = context.waitForEvent('page');
    await dialog.getByRole('link', { name: `Open ${where}` }).click();
    const tab = await opened;
    await tab.waitForLoadState();
    // Opened with noopener: the page cannot reach back to Switchboard's.
    expect(await tab.evaluate(() => window.opener === null)).toBe(true);
    await tab.close();
    await expect(dialog).toHaveCount(0);
    await expect(transcript(page)).toContainText('Signed in (elicitation/complete sent');
    await expect(transcript(page).getByRole('region', { name: `Question from the agent: Open a page on ${where}` })).toContainText('the agent says it is done');
  });
});
