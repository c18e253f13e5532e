/**
 * search_ms_1gb: `search:query` answered by the headless host over its WebSocket, on a data dir
 * holding 1 GB of transcripts (JSON payloads of stored events; see bench/lib/search-corpus.ts,
 * written once into the OS temp dir and reused). The figure is the slowest of the query kinds
 * below (each the median of its reps), so no kind of query hides behind an easy one.
 */
import { commonWords, EVERYWHERE, RARE, searchCorpus, SOMETIMES } from '../lib/search-corpus';
import { startHost } from '../lib/host';
import { fmt, medianOf, timed } from '../lib/stats';
import type { BenchContext, BenchGroup, Metric } from '../lib/types';
import type { SearchResultsT } from '../../src/shared/contract';

const GIB = 1024 ** 3;

export const search: BenchGroup = {
  names: ['search_ms_1gb'],

  async run(ctx: BenchContext): Promise<Metric[]> {
    const target = ctx.quick ? 64 * 1024 ** 2 : GIB;
    const corpus = searchCorpus(target, ctx.progress);
    const [first, second] = commonWords(2);
    const queries: [string, string][] = [
      ['one hit', RARE],
      ['1 answer in 1,000', SOMETIMES],
      ['in every answer', EVERYWHERE],
      ['two common words', `${first} ${second}`],
      ['prefix while typing', SOMETIMES.slice(0, 5)],
      ['phrase', `"${first} ${second}"`],
      ['no hit', 'xylophonequartz'],
    ];
    const host = await startHost([], corpus.dataDir);
    try {
      const once = (query: string) => host.client.call('search:query', { query, limit: 20 }) as Promise<SearchResultsT>;
      const rare = await once(RARE);
      if (rare.groups.length !== 1) throw new Error(`search corpus: expected one session with ${RARE}, got ${rare.groups.length}`);
      if (rare.indexing) throw new Error('search corpus: the host is still indexing it');
      const reps = ctx.quick ? 5 : 15;
      const results: { kind: string; ms: number }[] = [];
      for (const [kind, query] of queries) {
        const { median } = await medianOf(2, reps, () => timed(() => once(query)));
        results.push({ kind, ms: median });
      }
      const worst = results.reduce((a, b) => (b.ms > a.ms ? b : a));
      const mb = Math.round(corpus.bytes / 1024 ** 2);
      return [
        {
          name: 'search_ms_1gb',
          value: worst.ms,
          unit: 'ms',
          target: 100,
          better: 'lower',
          detail: `${mb} MiB of transcripts (${corpus.events.toLocaleString('en')} events, ${corpus.sessions} sessions), slowest query kind (${worst.kind}) of: ${results.map((r) => `${r.kind} ${fmt(r.ms)} ms`).join(', ')}; median of ${reps}, 20 sessions asked`,
        },
      ];
    } finally {
      await host.stop();
    }
  },
};
