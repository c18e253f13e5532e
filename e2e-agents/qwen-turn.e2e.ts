import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { openApp, running, send, transcript } from '../e2e/support/fixtures';
import { currentEntry, expect, newSessionOn, pinned, QWEN_TURN, test } from './support/interop';

test('a real Qwen Code turn on the stand-in model: tool call, permission, Allow, file written, final answer', async ({ page, interop }) => {
  const written = join(interop.home, QWEN_TURN.file);
  await openApp(page, interop.serve.url);
  await newSessionOn(page, pinned('qwen'));
  await expect(currentEntry(page)).toContainText('Idle');

  await send(page, `${QWEN_TURN.trigger} with a short note, please.`);
  // The stand-in answers with a write_file call: Qwen shows it, then asks before writing.
  const dialog = page.getByRole('dialog');
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText(QWEN_TURN.file);
  await expect(transcript(page)).toContainText(/WriteFile/);
  expect(existsSync(written), 'nothing is written before the person allows it').toBe(false);
  await dialog.getByRole('button', { name: 'Allow', exact: true }).click();
  await expect(dialog).toHaveCount(0);

  await expect(transcript(page)).toContainText(QWEN_TURN.finalText);
  await expect(running(page)).toHaveCount(0);
  // Written through Switchboard's fs/write_text_file, in the session folder, with the model's content.
  expect(readFileSync(written, 'utf8')).toBe(QWEN_TURN.content);
  expect(interop.model.toolCalls).toEqual([{ name: 'write_file', arguments: { file_path: written, content: QWEN_TURN.content } }]);
});
