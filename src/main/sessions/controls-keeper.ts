import type * as acp from '@agentclientprotocol/sdk';
import { headerControls, SessionControls, type ControlTarget, type Cost, type HeaderControl, type TurnUsage } from '../../shared/contract';
import { AppError } from '../../shared/errors';
import { AgentChoices, type RememberedKind } from './agent-choices';
import { addTokens, afterSet, applyUpdate, CONTROL_UPDATES, fromSessionAnswer, isOffered, turnUsage } from './controls-state';
import type { LiveSession } from './live-session';
import type { SessionContext } from './session-context';
import { describeAgentError } from './session-starter';
import { Emitter, type Event } from '../util/event';
import { acpSdk } from '../util/acp-sdk';

/** Sessions whose parsed controls are kept (`SessionControlsKeeper.get`). */
const PARSED_KEPT = 1_000;

/** The unstable ACP method for `models` (the SDK 2.4 has no name for it). */
const SET_MODEL = 'session/set_model';

type Value = string | boolean;

function methodOf(target: ControlTarget): string {
  return target.kind === 'mode' ? acpSdk().methods.agent.session.setMode : target.kind === 'model' ? SET_MODEL : acpSdk().methods.agent.session.setConfigOption;
}

function sameTarget(a: ControlTarget, b: ControlTarget): boolean {
  return a.kind === b.kind && (a.kind !== 'option' || (b.kind === 'option' && a.configId === b.configId));
}

function describeValue(ctl: HeaderControl, value: Value): string {
  if (ctl.kind === 'boolean') return value ? 'on' : 'off';
  return ctl.choices.find((c) => c.value === value)?.name ?? String(value);
}

/**
 * A session's modes, models, config options and usage: taken from the agent's answers and
 * updates, stored on the session row (a reload or restart shows the last known ones), pushed to
 * watching windows, changed on the agent for a person, and remembered per agent as the
 * defaults of its next new sessions.
 */
export class SessionControlsKeeper {
  private readonly didChange = new Emitter<{ sessionId: string; controls: SessionControls }>();
  /** A session's modes, models, options or usage changed (the windows watching it follow). */
  readonly onDidChange: Event<{ sessionId: string; controls: SessionControls }> = this.didChange.event;

  private readonly choices: AgentChoices;
  /**
   * The last parse of each session's stored JSON, the most recently read last. Parsing is most
   * of a read (0.1–0.3 ms, 100 sessions' turns: 4% of the host's time in a flood); the JSON
   * read beside it says whether the parse still holds. Nothing here changes a parse in place.
   */
  private readonly parsed = new Map<string, { json: string; controls: SessionControls | undefined }>();

  constructor(private readonly ctx: SessionContext) {
    this.choices = new AgentChoices(ctx.o.store.settings);
  }

  /** The stored controls, parsed (read twice a turn: `costNow`, `endTurn`). */
  get(sessionId: string): SessionControls | undefined {
    const json = this.ctx.o.store.sessions.controlsJson(sessionId);
    if (!json) return undefined;
    const known = this.parsed.get(sessionId);
    if (known?.json === json) return known.controls;
    let controls: SessionControls | undefined;
    try {
      const parsed = SessionControls.safeParse(JSON.parse(json));
      controls = parsed.success ? parsed.data : undefined;
    } catch {
      controls = undefined;
    }
    this.parsed.delete(sessionId);
    this.parsed.set(sessionId, { json, controls });
    if (this.parsed.size > PARSED_KEPT) this.parsed.delete(this.parsed.keys().next().value!);
    return controls;
  }

  /** An agent session came up (`session/new`, `load`, `resume`): what its answer offers. */
  started(sessionId: string, answer: unknown): void {
    this.change(sessionId, (prev) => fromSessionAnswer(prev, answer));
  }

  /** Takes a `session/update` that changes the controls; false for any other (the caller stores it). */
  onUpdate(sessionId: string, update: acp.SessionUpdate): boolean {
    if (!CONTROL_UPDATES.has(update.sessionUpdate)) return false;
    this.change(sessionId, (prev) => applyUpdate(prev ?? { rev: 0 }, update as unknown as Record<string, unknown>));
    return true;
  }

  /** The session's cumulative cost now (a turn's cost is what it rose by). */
  costNow(sessionId: string): Cost | undefined {
    return this.get(sessionId)?.usage?.cost;
  }

  /** A turn ended with the agent's `usage` (or none): its use, added to the session's tokens. */
  endTurn(sessionId: string, costBefore: Cost | undefined, reported: unknown): TurnUsage | undefined {
    const usage = turnUsage(costBefore, this.get(sessionId), reported);
    const tokens = usage?.tokens;
    if (tokens) this.change(sessionId, (prev) => ({ ...(prev ?? { rev: 0 }), usage: { ...prev?.usage, tokens: addTokens(prev?.usage?.tokens, tokens) } }));
    return usage;
  }

  /**
   * Sets `value` on the live agent session and stores what the agent then holds. The person
   * chose it: it becomes this agent's default for new sessions. An agent's refusal is thrown
   * as the agent said it, and nothing is stored.
   */
  async set(live: LiveSession, target: ControlTarget, value: Value): Promise<SessionControls> {
    const sessionId = live.id;
    const before = this.get(sessionId);
    const ctl = headerControls(before).find((c) => sameTarget(c.target, target));
    if (!before || !ctl || !isOffered(before, target, value)) {
      throw new AppError('invalid_request', 'The agent does not offer that choice for this session');
    }
    const answer = await this.request(live, target, value);
    const after = this.change(sessionId, (prev) => afterSet(prev ?? before, target, value, answer));
    const agentId = this.ctx.row(sessionId).agent_id;
    this.choices.remember(agentId, this.kindOf(ctl, value), value);
    return after;
  }

  /**
   * After `session/new`: the agent's remembered choices it still offers are set, except a mode
   * that skips permission prompts the person never picked in this agent. What was applied is
   * said in the transcript; a refusal is logged and the agent's own choice stays.
   */
  async applyDefaults(live: LiveSession, agentId: string): Promise<void> {
    const remembered = this.choices.of(agentId);
    if (!remembered) return;
    const applied: string[] = [];
    for (const ctl of headerControls(this.get(live.id))) {
      const wanted = ctl.role === 'mode' ? remembered.mode : ctl.role === 'model' ? remembered.model : ctl.target.kind === 'option' ? remembered.options?.[ctl.target.configId] : undefined;
      if (wanted === undefined || wanted === ctl.value) continue;
      if (ctl.kind === 'select') {
        const choice = ctl.choices.find((c) => c.value === wanted);
        if (!choice) continue;
        if (choice.skip && !remembered.chosenSkips?.includes(choice.value)) {
          this.ctx.o.logger.info('a remembered mode that skips permission prompts was not applied: not chosen by the person', { session: live.id, mode: choice.value });
          continue;
        }
      } else if (typeof wanted !== 'boolean') continue;
      const current = this.get(live.id);
      if (!current || !isOffered(current, ctl.target, wanted)) continue;
      try {
        const answer = await this.request(live, ctl.target, wanted);
        this.change(live.id, (prev) => afterSet(prev ?? current, ctl.target, wanted, answer));
        applied.push(`${ctl.label} ${describeValue(ctl, wanted)}`);
      } catch (err) {
        this.ctx.o.logger.warn('applying a remembered choice failed', { session: live.id, control: ctl.label, error: String(err) });
      }
    }
    if (applied.length) {
      const agentName = live.broker?.agent.name ?? agentId;
      this.ctx.o.log.append(live.id, 'notice', { kind: 'default_applied', text: `Your last choices for ${agentName}: ${applied.join(', ')}.` });
    }
  }

  /** Asks the agent; resolves with its answer (a `set_config_option` answer lists the options anew). */
  private async request(live: LiveSession, target: ControlTarget, value: Value): Promise<unknown> {
    const broker = live.broker;
    const sessionId = live.acpSessionId;
    if (!broker || !sessionId) throw new AppError('invalid_state', 'The agent session is not running');
    const method = methodOf(target);
    const timeout = this.ctx.o.requestTimeoutMs;
    try {
      if (target.kind === 'mode') return await broker.request(acpSdk().methods.agent.session.setMode, { sessionId, modeId: String(value) }, timeout);
      if (target.kind === 'model') return await broker.requestUnlisted(SET_MODEL, { sessionId, modelId: String(value) }, timeout);
      {
        const params =
          typeof value === 'boolean'
            ? { sessionId, configId: target.configId, type: 'boolean' as const, value }
            : { sessionId, configId: target.configId, value };
        return await broker.request(acpSdk().methods.agent.session.setConfigOption, params, timeout);
      }
    } catch (err) {
      throw broker.isAlive ? describeAgentError(broker.agent, method, err) : broker.exitError();
    }
  }

  private kindOf(ctl: HeaderControl, value: Value): RememberedKind {
    if (ctl.role === 'mode') {
      const skips = ctl.kind === 'select' && ctl.choices.some((c) => c.value === value && c.skip !== undefined);
      return { role: 'mode', skips };
    }
    if (ctl.role === 'model') return { role: 'model' };
    return { role: 'option', configId: ctl.target.kind === 'option' ? ctl.target.configId : ctl.key };
  }

  /** Stores `step(prev)` with the next rev and tells watching windows, unless nothing changed. */
  private change(sessionId: string, step: (prev: SessionControls | undefined) => SessionControls): SessionControls {
    const prev = this.get(sessionId);
    const next = step(prev);
    const { rev: _a, ...a } = prev ?? { rev: 0 };
    const { rev: _b, ...b } = next;
    if (prev && JSON.stringify(a) === JSON.stringify(b)) return prev;
    const stored = { ...next, rev: (prev?.rev ?? 0) + 1 };
    this.ctx.o.store.sessions.setControlsJson(sessionId, JSON.stringify(stored));
    this.didChange.fire({ sessionId, controls: stored });
    return stored;
  }
}
