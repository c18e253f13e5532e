import { describe, expect, it } from 'vitest';
import { formatCost, formatTokens, sessionUsageText, turnUsageText } from './usage-format';

describe('usage as the person reads it', () => {
  it('shortens token counts', () => {
    expect([formatTokens(950), formatTokens(1600), formatTokens(200_000), formatTokens(3_400_000)]).toEqual(['950', '1.6k', '200k', '3.4M']);
  });

  it('keeps the digits of small amounts of money, and names other units as the agent did', () => {
    expect(formatCost({ amount: 0.0125, currency: 'USD' })).toBe('$0.0125');
    expect(formatCost({ amount: 2, currency: 'EUR' })).toBe('€2.00');
    expect(formatCost({ amount: 12, currency: 'credits' })).toBe('12 credits');
  });

  it('says a turn\'s tokens, cost and context window, and only what was reported', () => {
    expect(
      turnUsageText({ tokens: { inputTokens: 1200, outputTokens: 300, totalTokens: 1600 }, cost: { amount: 0.0125, currency: 'USD' }, context: { used: 1600, size: 200_000 } }),
    ).toBe('1.6k tokens (1.2k in, 300 out) · $0.0125 · context 1.6k / 200k');
    expect(turnUsageText({ cost: { amount: 0.5, currency: 'USD' } })).toBe('$0.50');
    expect(sessionUsageText({})).toBeUndefined();
    expect(sessionUsageText(undefined)).toBeUndefined();
  });
});
