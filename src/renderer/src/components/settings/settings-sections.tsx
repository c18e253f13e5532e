/**
 * The sections of Settings, in the order the side list shows them. A section is one component
 * added to this list: its tab and panel follow. Only sections with a component are listed,
 * so nothing empty is shown.
 */
import type { ComponentType } from 'react';
import { AgentsSection } from './agents-section';
import { GeneralSection } from './general-section';
import { McpSection } from './mcp-section';
import { PermissionsSection } from './permissions-section';
import { RepositoriesSection } from './repositories-section';
import { StorageSection } from './storage-section';

export interface SettingsSection {
  /** Stable, for element ids and a caller that opens Settings on a section. */
  id: string;
  /** The tab's name, and the panel's. */
  label: string;
  Component: ComponentType;
}

export const SETTINGS_SECTIONS: readonly SettingsSection[] = [
  { id: 'general', label: 'General', Component: GeneralSection },
  { id: 'agents', label: 'Agents', Component: AgentsSection },
  { id: 'mcp', label: 'MCP servers', Component: McpSection },
  { id: 'permissions', label: 'Permissions', Component: PermissionsSection },
  { id: 'repositories', label: 'Repositories', Component: RepositoriesSection },
  { id: 'storage', label: 'Storage', Component: StorageSection },
];

/**
 * The tab a key moves to in a vertical tab list (ARIA tabs pattern): Up/Down and Left/Right
 * step and wrap, Home and End go to the ends; undefined for any other key.
 */
export function tabAfterKey(key: string, index: number, count: number): number | undefined {
  switch (key) {
    case 'ArrowDown':
    case 'ArrowRight':
      return (index + 1) % count;
    case 'ArrowUp':
    case 'ArrowLeft':
      return (index - 1 + count) % count;
    case 'Home':
      return 0;
    case 'End':
      return count - 1;
    default:
      return undefined;
  }
}
