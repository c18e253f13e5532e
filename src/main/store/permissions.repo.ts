import type { Db } from './db';
import type { PermissionOptionT, PermissionRuleT, PermissionViewT, ToolCallViewT, ToolKind } from '../../shared/contract';

interface PermissionRow {
  request_id: string;
  session_id: string;
  tool_call_id: string;
  tool_call: string;
  options: string;
  status: 'pending' | 'decided';
  created_at: number;
  deadline_at: number | null;
}

interface RuleRow {
  id: string;
  session_id: string;
  /** Only ever written from a typed tool call kind (`upsertRule`). */
  tool_kind: ToolKind;
  decision: 'allow_always' | 'reject_always';
  created_at: number;
}

export interface Decision {
  outcome: 'selected' | 'cancelled';
  optionId?: string;
  decidedBy: string;
  reason?: string;
}

const toView = (r: PermissionRow): PermissionViewT => ({
  requestId: r.request_id,
  sessionId: r.session_id,
  toolCall: JSON.parse(r.tool_call) as ToolCallViewT,
  options: JSON.parse(r.options) as PermissionOptionT[],
  createdAt: r.created_at,
  ...(r.deadline_at === null ? {} : { deadlineAt: r.deadline_at }),
});

/** Permission requests (pending and decided, with who decided) and remembered rules. */
export class PermissionsRepo {
  private readonly stmts;

  constructor(db: Db) {
    this.stmts = {
      insert: db.prepare(
        `INSERT INTO permissions (request_id, session_id, tool_call_id, tool_call, options, status, created_at)
         VALUES (?, ?, ?, ?, ?, 'pending', ?)`,
      ),
      decide: db.prepare(
        `UPDATE permissions SET status = 'decided', outcome = @outcome, option_id = @optionId,
           decided_by = @decidedBy, reason = @reason, decided_at = @now
         WHERE request_id = @requestId AND status = 'pending'`,
      ),
      setDeadline: db.prepare(`UPDATE permissions SET deadline_at = ? WHERE request_id = ?`),
      pendingFor: db.prepare(`SELECT * FROM permissions WHERE session_id = ? AND status = 'pending' ORDER BY created_at`),
      allPending: db.prepare(`SELECT * FROM permissions WHERE status = 'pending'`),
      get: db.prepare(`SELECT * FROM permissions WHERE request_id = ?`),
      rules: db.prepare(`SELECT * FROM permission_rules WHERE session_id = ? ORDER BY created_at`),
      rule: db.prepare(`SELECT * FROM permission_rules WHERE session_id = ? AND tool_kind = ?`),
      upsertRule: db.prepare(
        `INSERT INTO permission_rules (id, session_id, tool_kind, decision, created_at) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (session_id, tool_kind) DO UPDATE SET decision = excluded.decision, created_at = excluded.created_at`,
      ),
      deleteRule: db.prepare(`DELETE FROM permission_rules WHERE session_id = ? AND id = ?`),
    };
  }

  insert(v: PermissionViewT): void {
    this.stmts.insert.run(v.requestId, v.sessionId, v.toolCall.toolCallId, JSON.stringify(v.toolCall), JSON.stringify(v.options), v.createdAt);
  }

  /** Records a decision if the request is still pending; false if it was decided already. */
  decide(requestId: string, d: Decision, now: number): boolean {
    return (
      this.stmts.decide.run({
        requestId,
        outcome: d.outcome,
        optionId: d.optionId ?? null,
        decidedBy: d.decidedBy,
        reason: d.reason ?? null,
        now,
      }).changes === 1
    );
  }

  setDeadline(requestId: string, deadlineAt: number | undefined): void {
    this.stmts.setDeadline.run(deadlineAt ?? null, requestId);
  }

  pendingFor(sessionId: string): PermissionViewT[] {
    return (this.stmts.pendingFor.all(sessionId) as PermissionRow[]).map(toView);
  }

  allPending(): PermissionViewT[] {
    return (this.stmts.allPending.all() as PermissionRow[]).map(toView);
  }

  get(requestId: string): (PermissionViewT & { status: 'pending' | 'decided' }) | undefined {
    const row = this.stmts.get.get(requestId) as PermissionRow | undefined;
    return row ? { ...toView(row), status: row.status } : undefined;
  }

  /** This request of this session was decided already. */
  isAnswered(requestId: string, sessionId: string): boolean {
    const stored = this.get(requestId);
    return stored?.sessionId === sessionId && stored.status === 'decided';
  }

  rules(sessionId: string): PermissionRuleT[] {
    return (this.stmts.rules.all(sessionId) as RuleRow[]).map((r) => ({
      id: r.id,
      sessionId: r.session_id,
      toolKind: r.tool_kind,
      decision: r.decision,
      createdAt: r.created_at,
    }));
  }

  rule(sessionId: string, toolKind: ToolKind): PermissionRuleT | undefined {
    const r = this.stmts.rule.get(sessionId, toolKind) as RuleRow | undefined;
    return r && { id: r.id, sessionId: r.session_id, toolKind: r.tool_kind, decision: r.decision, createdAt: r.created_at };
  }

  upsertRule(rule: PermissionRuleT): void {
    this.stmts.upsertRule.run(rule.id, rule.sessionId, rule.toolKind, rule.decision, rule.createdAt);
  }

  deleteRule(sessionId: string, ruleId: string): boolean {
    return this.stmts.deleteRule.run(sessionId, ruleId).changes === 1;
  }
}
