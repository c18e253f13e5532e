import { readFileSync } from 'node:fs';
import { expect, messageBox, newSession, openApp, send, sidebar, test, transcript } from './support/fixtures';

test.describe('forks, export and import', () => {
  test('Fork makes a session with the conversation so far, linked to its parent, which the agent forked too', async ({ page, host }) => {
    await openApp(page, host.url());
    await newSession(page);
    await send(page, 'first message');
    await expect(transcript(page)).toContainText('Echo: first message');
    await send(page, 'second message');
    await expect(transcript(page)).toContainText('Echo: second message');

    await page.getByRole('button', { name: 'Fork', exact: true }).click();
    await expect(transcript(page)).toContainText(/Forked from “first message”/);
    await expect(transcript(page)).toContainText('Echo: second message');
    await expect(sidebar(page).getByRole('link', { name: /first message/ })).toHaveCount(2);
    await send(page, '/fork');
    await expect(transcript(page)).toContainText(/This session is a fork of .*, with its first 2 prompts\./);

    // The notice links back to the parent.
    await transcript(page).getByRole('link', { name: 'Open the original session' }).click();
    await expect(transcript(page)).not.toContainText('Forked from');
    await expect(transcript(page)).toContainText('Echo: second message');
  });

  test('Edit and resend forks before the message and sends the edited text there; the original stays', async ({ page, host }) => {
    await openApp(page, host.url());
    await newSession(page);
    await send(page, 'first message');
    await expect(transcript(page)).toContainText('Echo: first message');
    await send(page, 'second message');
    await expect(transcript(page)).toContainText('Echo: second message');

    const edits = transcript(page).getByRole('button', { name: 'Edit and resend' });
    await expect(edits).toHaveCount(2);
    await edits.nth(1).click();
    const editor = transcript(page).getByRole('textbox', { name: 'Edited message' });
    await expect(editor).toHaveValue('second message');
    await editor.fill('second message, edited');
    await editor.press('Enter');

    await expect(transcript(page)).toContainText('Echo: second message, edited');
    await expect(transcript(page)).toContainText('Echo: first message');
    await expect(messageBox(page)).toBeVisible();
    await send(page, '/fork');
    await expect(transcript(page)).toContainText('with its first 1 prompts.');

    await sidebar(page).getByRole('link', { name: /first message/ }).last().click();
    await expect(transcript(page)).toContainText('Echo: second message');
    await expect(transcript(page)).not.toContainText('edited');
  });

  test('Export… as Markdown and JSON downloads; Import session… reads the JSON back as a read-only archived session', async ({ page, host }) => {
    await openApp(page, host.url());
    await newSession(page);
    await send(page, 'something to keep');
    await expect(transcript(page)).toContainText('Echo: something to keep');
    await send(page, '/tool Read the README');
    await expect(transcript(page)).toContainText('Tool "Read the README" finished.');

    await page.getByRole('button', { name: 'Export…' }).click();
    const exportDialog = page.getByRole('dialog', { name: 'Export session' });
    let downloading = page.waitForEvent('download');
    await exportDialog.getByRole('button', { name: 'Export as Markdown' }).click();
    const markdown = await downloading;
    expect(markdown.suggestedFilename()).toMatch(/^something-to-keep-\d{4}-\d{2}-\d{2}\.md$/);
    const md = readFileSync((await markdown.path())!, 'utf8');
    expect(md).toContain('# something to keep');
    expect(md).toContain('- **Tool call** `Read the README` (read): completed');

    await sidebar(page).getByRole('link', { name: /something to keep/ }).click({ button: 'right' });
    await page.getByRole('menuitem', { name: 'Export…' }).click();
    downloading = page.waitForEvent('download');
    await page.getByRole('dialog', { name: 'Export session' }).getByRole('button', { name: 'Export as JSON' }).click();
    const json = await downloading;
    const file = (await json.path())!;
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({ format: 'switchboard-session', version: 1 });

    // A file that is not an export is refused, clearly, and nothing appears.
    const before = await sidebar(page).getByRole('link').count();
    await page.getByLabel('Session file to import').setInputFiles({ name: 'notes.json', mimeType: 'application/json', buffer: Buffer.from('{"hello": 1}') });
    await expect(page.getByText(/Could not import notes\.json: “notes\.json” is not a Switchboard session export/)).toBeVisible();
    expect(await sidebar(page).getByRole('link').count()).toBe(before);

    await expect(page.getByRole('button', { name: 'Import session…' })).toBeVisible();
    // As the person would pick it: under the name the download suggested.
    await page.getByLabel('Session file to import').setInputFiles({ name: json.suggestedFilename(), mimeType: 'application/json', buffer: readFileSync(file) });
    await expect(page.getByRole('note').filter({ hasText: 'imported from a file' })).toBeVisible();
    await expect(transcript(page)).toContainText('Echo: something to keep');
    await expect(transcript(page)).toContainText(/Imported from “something-to-keep/);
    await expect(messageBox(page)).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Fork', exact: true })).toHaveCount(0);
    await expect(transcript(page).getByRole('button', { name: 'Edit and resend' })).toHaveCount(0);
  });
});
