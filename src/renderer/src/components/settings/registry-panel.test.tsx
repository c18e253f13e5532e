import { describe, expect, it } from 'vitest';
import type { AgentViewT, RegistryListingT } from '../../../../shared/contract';
import { filterEntries } from '../../store/slices/registry/selectors';
import { renderWith, storeWith } from '../../test-support/static-render';
import { AgentsSection } from './agents-section';
import { RegistryPanel, installText, sourceLine } from './registry-panel';

const bare = (html: string): string => html.replace(/<!-- -->/g, '');

const listing: RegistryListingT = {
  source: 'snapshot',
  asOf: '2026-02-07T18:22:39+00:00',
  snapshot: { repository: 'agentclientprotocol/registry', commit: 'a'.repeat(40), date: '2026-02-07T18:22:39+00:00' },
  error: 'getaddrinfo ENOTFOUND cdn.agentclientprotocol.com',
  entries: [
    {
      manifest: { id: 'gemini', name: 'Gemini CLI', version: '0.27.3', description: 'Google’s coding agent', license: 'Apache-2.0', distribution: { npx: { package: '@google/gemini-cli@0.27.3' } } },
      options: [{ kind: 'npx', need: { tool: 'node', satisfied: true, detail: 'npx at /usr/bin/npx' }, command: 'npx', args: ['-y', '@google/gemini-cli@0.27.3'] }],
      preferred: 'npx',
      addedAs: ['gemini'],
    },
    {
      manifest: { id: 'kimi', name: 'Kimi CLI', version: '1.9.0', description: 'Moonshot’s agent', distribution: { uvx: { package: 'kimi-cli==1.9.0' } } },
      options: [{ kind: 'uvx', need: { tool: 'uv', satisfied: false, detail: 'install uv (https://docs.astral.sh/uv/)' }, command: 'uvx', args: ['kimi-cli==1.9.0'] }],
      addedAs: [],
      unavailable: 'Kimi CLI needs uv, which is not installed here',
    },
  ],
  skipped: [{ id: 'evil', reason: 'distribution.npx.package: an npm package, optionally @version' }],
  updates: [],
};

const agent: AgentViewT = {
  id: 'gemini',
  name: 'Gemini CLI',
  command: 'npx',
  args: ['-y', '@google/gemini-cli@0.27.3'],
  env: [],
  source: 'user',
  editable: true,
  removable: true,
  openSessions: 0,
  availability: { status: 'download', detail: '' },
  hints: [],
};

describe('Add from registry', () => {
  it('lists each entry with its name, description, version, license and what it needs here', () => {
    const html = bare(renderWith(storeWith({ registry: listing }), <RegistryPanel onClose={() => {}} />));
    expect(html).toContain('Add from registry');
    expect(html).toContain('aria-label="Registry agents"');
    expect(html).toContain('Gemini CLI');
    expect(html).toContain('Google’s coding agent');
    expect(html).toContain('>0.27.3</span>');
    expect(html).toContain('>Apache-2.0</span>');
    expect(html).toContain('Node (npx): npx at /usr/bin/npx');
    expect(html).toContain('uv (uvx): missing — install uv');
    expect(html).toContain('Kimi CLI needs uv, which is not installed here');
    expect(html).toContain('Added as gemini.');
    expect(html).toContain('It could not be fetched: getaddrinfo ENOTFOUND');
    expect(html).toContain('Left out of the list (1)');
    expect(html).toMatch(/<label class="field-label" for="[^"]+">Search the registry<\/label>/);
    expect(html).toMatch(/<label class="field-label" for="[^"]+">Registry address<\/label>/);
    expect(html).toContain('>Check for updates</button>');
    // Nothing to add where no distribution fits this machine.
    expect(html.match(/<button[^>]*>Add<\/button>/g)).toHaveLength(2);
    expect(html.match(/<button[^>]*disabled=""[^>]*>Add<\/button>/g)).toHaveLength(1);
  });

  it('finds entries by every word of the search, in name, id, description or license', () => {
    expect(filterEntries(listing.entries, 'gem').map((e) => e.manifest.id)).toEqual(['gemini']);
    expect(filterEntries(listing.entries, 'AGENT moonshot').map((e) => e.manifest.id)).toEqual(['kimi']);
    expect(filterEntries(listing.entries, 'apache').map((e) => e.manifest.id)).toEqual(['gemini']);
    expect(filterEntries(listing.entries, '  ').map((e) => e.manifest.id)).toEqual(['gemini', 'kimi']);
    expect(filterEntries(listing.entries, 'nothing')).toEqual([]);
  });

  it('says where the list came from and how a download goes', () => {
    expect(sourceLine(listing)).toMatch(/^The copy bundled with Switchboard \(registry as of .+\)\.$/);
    expect(sourceLine({ ...listing, source: 'network' })).toMatch(/^Fetched from the registry /);
    expect(installText({ registryId: 'kimi', version: '1.9.0', phase: 'downloading', bytes: 1_048_576, total: 4_194_304 })).toBe('Downloading 25% (1.0 MB of 4.0 MB)…');
    expect(installText({ registryId: 'kimi', version: '1.9.0', phase: 'downloading', bytes: 2_097_152 })).toBe('Downloading 2.0 MB…');
    expect(installText({ registryId: 'kimi', version: '1.9.0', phase: 'verifying', bytes: 0 })).toBe('Checking the download…');
    expect(installText({ phase: 'starting' })).toBe('Adding…');
  });
});

describe('a registry agent in Settings → Agents', () => {
  it('shows its version, a newer one with Update, and Pin and Roll back', () => {
    const html = bare(
      renderWith(storeWith({ agents: [{ ...agent, registry: { registryId: 'gemini', kind: 'npx', version: '0.27.3', pinned: false, latestVersion: '0.28.0', previousVersion: '0.26.0' } }] }), <AgentsSection />),
    );
    expect(html).toContain('From the ACP registry (gemini, npx): version 0.27.3. Version 0.28.0 is available.');
    expect(html).toMatch(/<button type="button" class="button-secondary" title="Update to 0.28.0">Update<\/button>/);
    expect(html).toContain('>Pin</button>');
    expect(html).toContain('>Roll back</button>');
    expect(html).toContain('>Add from registry</button>');
  });

  it('offers no Update while pinned, says so, and offers Unpin', () => {
    const html = bare(renderWith(storeWith({ agents: [{ ...agent, registry: { registryId: 'gemini', kind: 'npx', version: '0.27.3', pinned: true, latestVersion: '0.28.0' } }] }), <AgentsSection />));
    expect(html).toContain('version 0.27.3, pinned.');
    expect(html).toMatch(/<button type="button" class="button-secondary" disabled="" title="Unpin it to update">Update<\/button>/);
    expect(html).toContain('>Unpin</button>');
    expect(html).not.toContain('>Roll back</button>');
  });

  it('offers Sign out only where the agent said it can sign out', () => {
    expect(renderWith(storeWith({ agents: [{ ...agent, canSignOut: true }] }), <AgentsSection />)).toContain('>Sign out</button>');
    expect(renderWith(storeWith({ agents: [agent] }), <AgentsSection />)).not.toContain('Sign out');
  });
});
