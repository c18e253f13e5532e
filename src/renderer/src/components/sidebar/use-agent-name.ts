import { useMemo } from 'react';
import { useAppStore } from '../../store/context';
import { sessionsSelectors } from '../../store/slices/sessions/selectors';

/** Agent id → its name, stable until the agent list changes (the filters' memo depends on it). */
export function useAgentName(): (agentId: string) => string {
  const agents = useAppStore(sessionsSelectors.agents);
  return useMemo(() => {
    const names = new Map(agents.map((a) => [a.id, a.name]));
    return (id: string) => names.get(id) ?? id;
  }, [agents]);
}
