import { describe, expect, it } from 'vitest';
import { ToolCallStatus } from '../../../../shared/contract';
import { describeResolution, toolStatusLabel } from './describe';

const base = { optionId: undefined, optionName: undefined, reason: undefined } as const;

describe('describeResolution', () => {
  it('says what was chosen and who decided', () => {
    expect(
      describeResolution({ ...base, outcome: 'selected', optionName: 'Allow once', decider: { kind: 'window', clientId: 'c', label: 'window 2' } }),
    ).toBe('Allow once — answered in window 2');
    expect(describeResolution({ ...base, outcome: 'selected', optionName: 'Reject', decider: { kind: 'timeout' } })).toBe(
      'Reject — no answer in time',
    );
    expect(describeResolution({ ...base, outcome: 'selected', optionName: 'Always allow', decider: { kind: 'rule', ruleId: 'r' } })).toBe(
      'Always allow — by a remembered rule',
    );
    expect(describeResolution({ ...base, outcome: 'cancelled', decider: { kind: 'cancel', reason: 'closed_by_user' } })).toBe(
      'Cancelled — withdrawn: closed by you',
    );
  });
});

describe('toolStatusLabel', () => {
  it('never says Running, which belongs to the composer status', () => {
    expect([...ToolCallStatus.options, undefined].map(toolStatusLabel)).not.toContain('Running');
  });
});
