/**
 * What an agent process inherits of Switchboard's own environment (issue 23): everything,
 * less what is not the agent's to see. Switchboard's environment is the person's shell's
 * (PATH, HOME, proxies, their own API keys for tools they run), which agents need; but it may
 * also carry Switchboard's secrets (the `serve` token, by name or by value) and values that
 * are other agents' or MCP servers' secrets (kept in the secret box, and also exported in the
 * shell that started Switchboard). Those are withheld: by name, and by value under any name.
 * The agent's own variables (its definition and its own secrets) are added after and win.
 *
 * Terminals the agent opens (`terminal/*`) get the same environment: what the agent could pass
 * them anyway, and nothing more.
 */

/** What no agent may inherit from Switchboard's environment (besides its own variables). */
export interface Withheld {
  /** Variables dropped by name. */
  names: ReadonlySet<string>;
  /** Variables dropped whatever their name, because their value is a secret. */
  values: ReadonlySet<string>;
}

/** Switchboard's own variables that name a secret: never inherited, whatever they hold. */
export const OWN_SECRET_NAMES: readonly string[] = ['SWITCHBOARD_TOKEN'];

/** Values shorter than this are not matched by value: "1", "true" and such are no one's secret. */
const MIN_SECRET_LENGTH = 8;

/**
 * `inherited` less the withheld names and values, then the agent's own variables on top. An
 * own variable that is withheld by name (another agent keeps a secret of that name too) is the
 * agent's own value, set explicitly for it: it stays.
 */
export function agentEnvironment(inherited: NodeJS.ProcessEnv, own: Readonly<Record<string, string>>, withheld: Withheld): Record<string, string> {
  const values = new Set([...withheld.values].filter((v) => v.length >= MIN_SECRET_LENGTH));
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(inherited)) {
    if (value === undefined || withheld.names.has(name) || values.has(value)) continue;
    env[name] = value;
  }
  return { ...env, ...own };
}
