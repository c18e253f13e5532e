import type { Cost, SessionUsage, TokenUsage, TurnUsage } from '../../../shared/contract';

/** 950, 1.2k, 3.4M: token counts at a glance. */
export function formatTokens(n: number): string {
  if (n < 1000) return String(Math.round(n));
  if (n < 1_000_000) return `${trim(n / 1000)}k`;
  return `${trim(n / 1_000_000)}M`;
}

function trim(n: number): string {
  return n >= 100 ? String(Math.round(n)) : n.toFixed(1).replace(/\.0$/, '');
}

/** `$0.0125` for money (small amounts keep their digits), `12 credits` for other units. */
export function formatCost(cost: Cost): string {
  if (/^[A-Z]{3}$/.test(cost.currency)) {
    try {
      return new Intl.NumberFormat('en-US', { style: 'currency', currency: cost.currency, minimumFractionDigits: 2, maximumFractionDigits: 4 }).format(cost.amount);
    } catch {
      // Not a currency Intl knows: said as the agent named it.
    }
  }
  return `${cost.amount} ${cost.currency}`;
}

function tokensText(t: TokenUsage): string {
  return `${formatTokens(t.totalTokens)} tokens (${formatTokens(t.inputTokens)} in, ${formatTokens(t.outputTokens)} out)`;
}

/** A turn's end line: its tokens, what it cost, the context window after it. */
export function turnUsageText(u: TurnUsage): string {
  const parts: string[] = [];
  if (u.tokens) parts.push(tokensText(u.tokens));
  if (u.cost) parts.push(formatCost(u.cost));
  if (u.context) parts.push(`context ${formatTokens(u.context.used)} / ${formatTokens(u.context.size)}`);
  return parts.join(' · ');
}

/** The header's line: the context window now, the session's tokens and cost so far. */
export function sessionUsageText(u: SessionUsage | undefined): string | undefined {
  if (!u) return undefined;
  const parts: string[] = [];
  if (u.context) parts.push(`Context ${formatTokens(u.context.used)} / ${formatTokens(u.context.size)}`);
  if (u.tokens) parts.push(`${formatTokens(u.tokens.totalTokens)} tokens`);
  if (u.cost) parts.push(formatCost(u.cost));
  return parts.length ? parts.join(' · ') : undefined;
}
