/**
 * Each TypeScript project sees only its own process's globals: the renderer has the DOM and no
 * Node, the host has Node and no DOM, the contract has neither. A fixture text is checked with
 * the compiler options of the project's real tsconfig, so a change to them breaks this test.
 */
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..');

/** Lib and @types files parsed once for every fixture (lib.dom.d.ts alone is large). */
const parsed = new Map<string, ts.SourceFile | undefined>();

function optionsOf(project: string): ts.CompilerOptions {
  const config = ts.getParsedCommandLineOfConfigFile(join(root, project), {}, {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (d) => {
      throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
    },
  });
  if (!config) throw new Error(`cannot read ${project}`);
  // Only the globals are under test: nothing is emitted or remembered between runs.
  return { ...config.options, noEmit: true, composite: false, incremental: false, emitDeclarationOnly: false, tsBuildInfoFile: undefined };
}

/** The type errors of `text` as the file `file` of `project`. */
function typeErrors(project: string, file: string, text: string): string[] {
  const options = optionsOf(project);
  const fileName = join(root, file);
  const host = ts.createCompilerHost(options);
  const read = host.getSourceFile.bind(host);
  host.getSourceFile = (name, language, onError) => {
    if (name === fileName) return ts.createSourceFile(name, text, language);
    if (!parsed.has(name)) parsed.set(name, read(name, language, onError));
    return parsed.get(name);
  };
  const exists = host.fileExists.bind(host);
  host.fileExists = (name) => name === fileName || exists(name);
  const program = ts.createProgram({ rootNames: [fileName], options, host });
  return ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
}

describe('globals per TypeScript project', () => {
  const renderer = (text: string) => typeErrors('tsconfig.renderer.json', 'src/renderer/src/probe.ts', text);
  const host = (text: string) => typeErrors('tsconfig.node.json', 'src/main/host/probe.ts', text);
  const shared = (text: string) => typeErrors('tsconfig.shared.json', 'src/shared/probe.ts', text);

  it('gives the renderer the DOM', () => {
    expect(renderer(`export const title: string = window.document.title;`)).toEqual([]);
  });

  it('refuses Node in the renderer: process, Buffer, NodeJS.Timeout', () => {
    expect(renderer(`export const env = process.env.HOME;`)).toEqual([expect.stringContaining("Cannot find name 'process'")]);
    expect(renderer(`export const bytes = Buffer.from('x');`)).toEqual([expect.stringContaining("Cannot find name 'Buffer'")]);
    expect(renderer(`export let timer: NodeJS.Timeout | undefined;`)).toEqual([expect.stringContaining("Cannot find namespace 'NodeJS'")]);
  });

  it('gives the host Node', () => {
    expect(host(`export const pid: number = process.pid;`)).toEqual([]);
  });

  it('refuses the DOM in the host: window, document, HTMLElement', () => {
    expect(host(`export const href = window.location.href;`)).toEqual([expect.stringContaining("Cannot find name 'window'")]);
    expect(host(`export const title = document.title;`)).toEqual([expect.stringContaining("Cannot find name 'document'")]);
    expect(host(`export let el: HTMLElement | undefined;`)).toEqual([expect.stringContaining("Cannot find name 'HTMLElement'")]);
  });

  it('keeps the contract pure: neither the DOM nor Node', () => {
    expect(shared(`export const last = [1, 2].at(-1);`)).toEqual([]);
    expect(shared(`export const href = window.location.href;`)).toEqual([expect.stringContaining("Cannot find name 'window'")]);
    expect(shared(`export const env = process.env.HOME;`)).toEqual([expect.stringContaining("Cannot find name 'process'")]);
  });
});
