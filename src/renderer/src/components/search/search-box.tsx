import { useCallback, useId, useRef, useState, type KeyboardEvent } from 'react';
import type { SearchHitT, SnippetPartT } from '../../../../shared/contract';
import { useAppStore } from '../../store/context';
import { searchSelectors } from '../../store/slices/search/selectors';

/** Its id is how other parts focus it (the search shortcut). */
const SEARCH_INPUT_ID = 'search-transcripts';

const KIND_LABEL: Record<SearchHitT['kind'], string> = { user: 'You', agent: 'Agent', thought: 'Thought', tool: 'Tool' };

/** Matched words as `<mark>`: the snippet is plain text parts, never markup. */
export function Snippet({ parts }: { parts: readonly SnippetPartT[] }) {
  return (
    <span className="search-snippet">
      {parts.map((p, i) => (p.hit ? <mark key={i}>{p.text}</mark> : <span key={i}>{p.text}</span>))}
    </span>
  );
}

function percent(indexed: number, total: number): number {
  return total === 0 ? 100 : Math.floor((indexed / total) * 100);
}

/**
 * The searchbox and its results: sessions with hits, newest first, the matched words marked.
 * Arrow Down moves from the box into the results, Escape clears; choosing a hit opens its
 * session scrolled to it.
 */
export function SearchBox() {
  const query = useAppStore(searchSelectors.query);
  const results = useAppStore(searchSelectors.results);
  const answered = useAppStore(searchSelectors.answeredQuery);
  const busy = useAppStore(searchSelectors.busy);
  const error = useAppStore(searchSelectors.error);
  const progress = useAppStore(searchSelectors.progress);
  const setQuery = useAppStore((s) => s.setSearchQuery);
  const openAt = useAppStore((s) => s.openAt);
  const [open, setOpen] = useState(false);
  const panelId = useId();
  const panelRef = useRef<HTMLDivElement>(null);
  const inputRef = useRef<HTMLInputElement>(null);

  const hits = (): HTMLElement[] => [...(panelRef.current?.querySelectorAll<HTMLElement>('.search-hit-button') ?? [])];
  const close = useCallback(() => {
    setOpen(false);
    setQuery('');
  }, [setQuery]);

  const onInputKey = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'ArrowDown') {
      hits()[0]?.focus();
      e.preventDefault();
    } else if (e.key === 'Escape') {
      close();
    } else if (e.key === 'Enter') {
      hits()[0]?.click();
    }
  };
  const onPanelKey = (e: KeyboardEvent<HTMLDivElement>) => {
    const list = hits();
    const at = list.indexOf(document.activeElement as HTMLElement);
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      const next = at + (e.key === 'ArrowDown' ? 1 : -1);
      if (next < 0) inputRef.current?.focus();
      else list[Math.min(next, list.length - 1)]?.focus();
      e.preventDefault();
    } else if (e.key === 'Escape') {
      inputRef.current?.focus();
      close();
    }
  };

  const choose = (sessionId: string, seq: number) => {
    setOpen(false);
    void openAt(sessionId, seq);
  };

  const showPanel = open && query.trim() !== '';
  return (
    <div
      className="search"
      onBlur={(e) => {
        // Focus left the box and its results (a click elsewhere): fold the results away.
        if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setOpen(false);
      }}
    >
      <input
        ref={inputRef}
        id={SEARCH_INPUT_ID}
        type="search"
        className="search-input"
        aria-label="Search transcripts"
        placeholder="Search transcripts"
        autoComplete="off"
        // A searchbox has no expanded state; it names the results it shows.
        aria-controls={showPanel ? panelId : undefined}
        value={query}
        onChange={(e) => {
          setQuery(e.target.value);
          setOpen(true);
        }}
        onFocus={() => setOpen(true)}
        onKeyDown={onInputKey}
      />
      {showPanel ? (
        <div
          id={panelId}
          ref={panelRef}
          className="search-results"
          role="region"
          aria-label="Search results"
          aria-busy={busy}
          onKeyDown={onPanelKey}
        >
          {progress ? (
            // aria-live without role="status": the page keeps one status, the composer's run status.
            <p className="search-status muted" aria-live="polite">
              Indexing older transcripts… {percent(progress.indexed, progress.total)}% (results may be incomplete)
            </p>
          ) : null}
          {error ? <p className="search-status" role="alert">Search failed: {error}</p> : null}
          {results && answered === query && results.groups.length === 0 && !error ? (
            <p className="search-status muted" aria-live="polite">
              No matches.
            </p>
          ) : null}
          {results?.groups.map((g) => (
            <section key={g.sessionId} className="search-group" aria-label={g.title}>
              <h3 className="search-group-title" title={g.cwd}>
                {g.title}
              </h3>
              <ul>
                {g.hits.map((h) => (
                  <li key={h.seq}>
                    <button type="button" className="search-hit-button" onClick={() => choose(g.sessionId, h.seq)}>
                      <span className="search-hit-kind">{KIND_LABEL[h.kind]}</span>
                      <Snippet parts={h.snippet} />
                    </button>
                  </li>
                ))}
              </ul>
              {g.more ? <p className="search-more muted">More matches in this session</p> : null}
            </section>
          ))}
          {results?.truncated ? <p className="search-status muted">Showing the newest matches.</p> : null}
        </div>
      ) : null}
    </div>
  );
}
