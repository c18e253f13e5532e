/**
 * Questions from the agent (ACP `elicitation/create`): the form model and its normaliser,
 * answers and their checks, and URL-mode targets. One import for the host and the renderer.
 */
export * from './elicitation-form';
export { compilePattern, isSafePattern } from './elicitation-pattern';
export * from './elicitation-answer';
export * from './elicitation-url';
export { decodePunycode, hostToUnicode } from './punycode';
export * from './elicitation-request';
