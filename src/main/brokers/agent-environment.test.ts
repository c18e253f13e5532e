import { describe, expect, it } from 'vitest';
import { agentEnvironment } from './agent-environment';

describe('agentEnvironment', () => {
  const withheld = { names: new Set(['OTHER_KEY', 'SWITCHBOARD_TOKEN']), values: new Set(['token-value-123', 'yes']) };

  it('drops withheld names, and withheld values under any name, then adds its own', () => {
    const env = agentEnvironment(
      { PATH: '/bin', OTHER_KEY: 'x', SWITCHBOARD_TOKEN: 't', COPY: 'token-value-123', UNSET: undefined },
      { OWN_KEY: 'mine' },
      withheld,
    );
    expect(env).toEqual({ PATH: '/bin', OWN_KEY: 'mine' });
  });

  it('keeps its own variable even when another agent keeps a secret of that name', () => {
    expect(agentEnvironment({ OTHER_KEY: 'inherited' }, { OTHER_KEY: 'its own' }, withheld)).toEqual({ OTHER_KEY: 'its own' });
  });

  it('does not match short values, which are no one\'s secret ("yes", "1")', () => {
    expect(agentEnvironment({ CI: 'yes' }, {}, withheld)).toEqual({ CI: 'yes' });
  });
});
