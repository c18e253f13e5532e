import { describe, expect, it } from 'vitest';
import type { QuestionViewT } from '../../../../shared/contract';
import { normaliseElicitationSchema, type UrlTargetT } from '../../../../shared/elicitation';
import { SID } from '../../test-support/fake-api';
import { question } from '../../test-support/store-fixtures';
import { renderWith as render, storeWith } from '../../test-support/static-render';
import { QuestionPrompt, QuestionStack } from './question-prompt';

/** The demo agent's kind of form: every kind of field. */
const form = normaliseElicitationSchema({
  type: 'object',
  title: 'Deploy',
  properties: {
    name: { type: 'string', title: 'Project name', description: '2 to 20 characters', minLength: 2, default: 'demo' },
    day: { type: 'string', title: 'Release day', format: 'date' },
    region: { type: 'string', title: 'Region', enum: ['eu', 'us'], default: 'eu' },
    many: { type: 'string', title: 'Zone', enum: ['a', 'b', 'c', 'd', 'e', 'f'] },
    features: { type: 'array', title: 'Features', items: { type: 'string', enum: ['logs', 'metrics'] }, default: ['logs'] },
    replicas: { type: 'integer', title: 'Replicas', minimum: 1, maximum: 10 },
    confirm: { type: 'boolean', title: 'I understand' },
    token: { type: 'string', title: 'Deploy token', _meta: { secret: true } },
  },
  required: ['name', 'replicas'],
});
if (!form.ok) throw new Error(form.error.message);
const formQuestion: QuestionViewT = { requestId: 'q1', sessionId: SID, question: { mode: 'form', message: 'A few questions.', form: form.value }, createdAt: 1 };

const target = (over: Partial<UrlTargetT> = {}): UrlTargetT => ({ href: 'https://login.example.com/sso', scheme: 'https', host: 'login.example.com', displayHost: 'login.example.com', warnings: [], deceptive: false, ...over });
const urlQuestion = (t: UrlTargetT): QuestionViewT => ({ requestId: 'q2', sessionId: SID, question: { mode: 'url', message: 'Sign in.', elicitationId: 'e1', target: t }, createdAt: 1 });

/** The opening tag of the control of field `name`, and its id. */
function control(html: string, name: string): { id: string; tag: string } {
  const m = new RegExp(`<(?:input|select|fieldset) id="([^"]+-field-${name})"[^>]*>`).exec(html);
  if (!m) throw new Error(`no control for ${name}`);
  return { id: m[1]!, tag: m[0] };
}

const show = (view: QuestionViewT, extra: Parameters<typeof storeWith>[0] = {}, error?: { message: string; fields: Record<string, string> }) =>
  render(storeWith(extra), <QuestionPrompt pending={{ view, answering: false, ...(error ? { error } : {}) }} />);

describe('a question as the person answers it', () => {
  it('is a dialog named by its form, with Submit, Decline and Cancel', () => {
    const html = show(formQuestion);
    expect(html).toMatch(/^<section role="dialog" aria-label="Deploy" aria-describedby="([^"]+)" class="permission question">.*<p id="\1" class="question-message">A few questions\.<\/p>/);
    expect(html).toContain('<form noValidate="">');
    expect(html).toMatch(/<button type="submit" class="button-primary">Submit<\/button><button type="button" class="button-secondary">Decline<\/button><button type="button" class="button-secondary">Cancel<\/button>/);
  });

  it('labels every control by its field, marks required ones, and reads each description with its control', () => {
    const html = show(formQuestion);
    const name = control(html, 'name');
    expect(html).toContain(`<label for="${name.id}">Project name<span class="required-mark" aria-hidden="true"> *</span></label>`);
    expect(name.tag).toContain('type="text"');
    expect(name.tag).toContain('required=""');
    expect(name.tag).toContain('value="demo"');
    expect(name.tag).toContain(`aria-describedby="${name.id}-desc"`);
    expect(html).toContain(`<p id="${name.id}-desc" class="muted small question-field-desc">2 to 20 characters</p>`);
    const day = control(html, 'day');
    expect(html).toContain(`<label for="${day.id}">Release day</label>`);
    expect(day.tag).toContain('type="date"');
    expect(day.tag).not.toContain('required');
    // Few choices as radio buttons in a group named by its legend, many as a select.
    expect(html).toMatch(/<fieldset id="[^"]+-field-region"><legend>Region<\/legend><label class="question-option"><input type="radio"[^>]* checked="" value="eu"\/>eu<\/label>/);
    expect(html).toMatch(/<label for="([^"]+-field-many)">Zone<\/label><select id="\1" name="many"><option value="" selected="">Choose…<\/option>/);
    expect(html).toMatch(/<legend>Features<\/legend><label class="question-option"><input type="checkbox" name="features" checked="" value="logs"\/>logs<\/label>/);
    const replicas = control(html, 'replicas');
    for (const attr of ['type="number"', 'required=""', 'min="1"', 'max="10"', 'step="1"', 'inputMode="numeric"']) expect(replicas.tag).toContain(attr);
    expect(html).toContain(`for="${control(html, 'confirm').id}"><input id="${control(html, 'confirm').id}" type="checkbox" name="confirm"/>I understand</label>`);
    // A secret is typed hidden, and not offered to the browser's autofill.
    expect(control(html, 'token').tag).toContain('type="password"');
    expect(control(html, 'token').tag).toContain('autoComplete="off"');
  });

  it("shows the host's reason beside each refused field, read with the field, and its message", () => {
    const html = show(formQuestion, {}, { message: 'The answer does not fit the form', fields: { replicas: 'Must be 10 or less' } });
    const replicas = control(html, 'replicas');
    expect(replicas.tag).toContain('aria-invalid="true"');
    expect(replicas.tag).toContain(`aria-describedby="${replicas.id}-error"`);
    expect(html).toContain(`<p id="${replicas.id}-error" class="field-error">Must be 10 or less</p>`);
    expect(html).toContain('<p class="permission-error">The answer does not fit the form</p>');
  });

  it('a URL question shows the real host large; headless, Open is a link that opens a tab with no way back', () => {
    const html = show(urlQuestion(target()));
    expect(html).toContain('aria-label="The agent asks you to open a page"');
    expect(html).toContain('<p class="question-host"><span class="muted small">The page is on </span><strong>login.example.com</strong></p>');
    expect(html).toContain('<a class="button-primary button-link" href="https://login.example.com/sso" target="_blank" rel="noopener noreferrer">Open login.example.com</a>');
  });

  it('in the desktop app, Open is a button: the host opens the page in the system browser', () => {
    const html = show(urlQuestion(target()), { hostInfo: { version: '1', headless: false, clientId: 'c', agents: [], settings: { idleTimeoutMs: 0, reapIntervalMs: 0, permissionTimeoutMs: 0, defaultCwd: '/', defaultAgentId: 'demo', maxSessionsPerBroker: 1 }, canOpenExternal: true } });
    expect(html).toContain('<button type="button" class="button-primary">Open login.example.com</button>');
    expect(html).not.toContain('<a ');
  });

  it('warns before a deceptive address is opened', () => {
    const html = show(urlQuestion(target({ displayHost: 'аррӏе.com', deceptive: true, warnings: [{ kind: 'lookalike', deceptive: true, message: '"аррӏе" is written in letters that look like Latin ones but are not.' }] })));
    expect(html).toContain('<ul class="question-warnings is-deceptive" aria-label="Warnings: this address may imitate another site"><li>&quot;аррӏе&quot; is written in letters that look like Latin ones but are not.</li></ul>');
  });

  it('stacks every pending question of the current session', () => {
    const pending = new Map([
      ['q1', { view: question('q1'), answering: false }],
      ['q2', { view: question('q2'), answering: true }],
    ]);
    const html = render(storeWith({ pendingQuestions: pending }), <QuestionStack />);
    expect(html.match(/role="dialog"/g)).toHaveLength(2);
    // The one being answered cannot be answered twice.
    expect(html).toMatch(/<button type="submit" class="button-primary" disabled="">Submit<\/button>/);
  });
});
