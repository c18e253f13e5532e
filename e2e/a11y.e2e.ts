import { AxeBuilder } from '@axe-core/playwright';
import type { Result } from 'axe-core';
import { AUDIT_STATES } from './support/audit-states';
import { expect, test } from './support/fixtures';

/** WCAG 2.0, 2.1 and 2.2, levels A and AA: what axe-core checks under these tags. */
const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

/**
 * Rules turned off, each with its reason. None today: every violation found was fixed where
 * it arose. (Add `rule: 'why'` here only with a reason a reviewer would accept.)
 */
const DISABLED_RULES: Record<string, string> = {};

const THEMES = ['light', 'dark'] as const;

/** One line per violation and node: enough to find it without opening the report. */
function describe(violations: readonly Result[]): string[] {
  return violations.flatMap((v) => v.nodes.map((n) => `${v.id} (${v.impact ?? 'n/a'}): ${n.target.join(' ')} — ${n.failureSummary?.split('\n').join(' ') ?? v.help}`));
}

test.describe('accessibility audit (axe-core, WCAG 2.2 A and AA)', () => {
  for (const state of AUDIT_STATES) {
    for (const theme of THEMES) {
      test(`${state.name}${state.size ? ` (${state.size})` : ''}, ${theme} theme`, async ({ page, host }) => {
        if (state.size === 'phone') await page.setViewportSize({ width: 390, height: 844 });
        else await page.setViewportSize({ width: 1280, height: 800 });
        // The stylesheet follows the system's scheme (light-dark()); Settings' pinned theme uses the same colours.
        await page.emulateMedia({ colorScheme: theme, reducedMotion: 'reduce' });
        await state.reach(page, host);
        const audit = async (where: string) => {
          const results = await new AxeBuilder({ page }).withTags(WCAG_TAGS).disableRules(Object.keys(DISABLED_RULES)).analyze();
          expect.soft(describe(results.violations), `axe violations in ${where}, ${theme}`).toEqual([]);
        };
        await audit(state.name);
        await state.each?.(page, (label) => audit(`${state.name}: ${label}`));
      });
    }
  }
});
