/**
 * Command and event names without zod, for the sandboxed preload (which must stay small).
 * A unit test asserts these lists equal the contract's keys.
 */
export const commandNameList = [
  'host:info',
  'sessions:list',
  'sessions:create',
  'sessions:switch',
  'sessions:detach',
  'sessions:close',
  'transcript:page',
  'transcript:since',
  'prompt:send',
  'prompt:cancel',
  'permissions:answer',
  'permissions:rules',
  'permissions:revoke',
  'settings:update',
  'agents:list',
  'agents:save',
  'agents:remove',
  'agents:test',
  'agents:presets',
  'agents:log',
  'agents:unfollow',
  'agents:authenticate',
  'sessions:retry',
  'sessions:archive',
  'sessions:restore',
  'sessions:delete',
  'agents:login',
  'agents:signin',
  'files:search',
  'folders:check',
  'folders:recent',
  'folders:pick',
  'agents:sessions',
  'sessions:rename',
  'drafts:get',
  'drafts:save',
  'windows:open',
  'terminals:read',
  'sessions:configure',
  'search:query',
] as const;

export const eventNameList = [
  'session:event',
  'session:updated',
  'permission:requested',
  'permission:resolved',
  'session:resync',
  'agents:changed',
  'agents:progress',
  'agent:log',
  'session:deleted',
  'terminal:output',
  'host:storage',
  'session:controls',
  'search:progress',
  'settings:changed',
] as const;

export const channelPrefix = 'sb:';
export const commandChannel = (name: string): string => `${channelPrefix}cmd:${name}`;
export const eventChannel = (name: string): string => `${channelPrefix}evt:${name}`;
