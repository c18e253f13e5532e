import type { Db } from './db';
import type { QuestionAction, QuestionViewT } from '../../shared/contract';
import { ElicitationQuestion } from '../../shared/elicitation';
import { defined } from '../util/defined';

interface QuestionRow {
  request_id: string;
  session_id: string;
  tool_call_id: string | null;
  question: string;
  status: 'pending' | 'answered';
  created_at: number;
  deadline_at: number | null;
}

export interface QuestionDecision {
  action: QuestionAction;
  decidedBy: string;
  reason?: string;
}

/** A stored question as windows see it; one whose question no longer parses (a newer version wrote it) reads as none. */
function toView(r: QuestionRow): QuestionViewT | undefined {
  let question: unknown;
  try {
    question = JSON.parse(r.question);
  } catch {
    return undefined;
  }
  const parsed = ElicitationQuestion.safeParse(question);
  if (!parsed.success) return undefined;
  const optional = defined({ toolCallId: r.tool_call_id, deadlineAt: r.deadline_at });
  return { requestId: r.request_id, sessionId: r.session_id, question: parsed.data, createdAt: r.created_at, ...optional } as QuestionViewT;
}

/**
 * Questions from the agent, pending and answered, with who answered. The answer's content is
 * never stored here: it may hold a secret (the transcript keeps it masked).
 */
export class QuestionsRepo {
  private readonly stmts;

  constructor(db: Db) {
    this.stmts = {
      insert: db.prepare(
        `INSERT INTO questions (request_id, session_id, tool_call_id, question, status, created_at) VALUES (?, ?, ?, ?, 'pending', ?)`,
      ),
      decide: db.prepare(
        `UPDATE questions SET status = 'answered', action = @action, decided_by = @decidedBy, reason = @reason, decided_at = @now
         WHERE request_id = @requestId AND status = 'pending'`,
      ),
      setDeadline: db.prepare(`UPDATE questions SET deadline_at = ? WHERE request_id = ?`),
      allPending: db.prepare(`SELECT * FROM questions WHERE status = 'pending' ORDER BY created_at`),
      get: db.prepare(`SELECT * FROM questions WHERE request_id = ?`),
    };
  }

  insert(v: QuestionViewT): void {
    this.stmts.insert.run(v.requestId, v.sessionId, v.toolCallId ?? null, JSON.stringify(v.question), v.createdAt);
  }

  /** Records how it was answered if it is still pending; false if it was answered already. */
  decide(requestId: string, d: QuestionDecision, now: number): boolean {
    return this.stmts.decide.run({ requestId, action: d.action, decidedBy: d.decidedBy, reason: d.reason ?? null, now }).changes === 1;
  }

  setDeadline(requestId: string, deadlineAt: number | undefined): void {
    this.stmts.setDeadline.run(deadlineAt ?? null, requestId);
  }

  /** Every pending question (a restart closes them); one that no longer reads is listed by id and session only. */
  allPending(): { requestId: string; sessionId: string; view: QuestionViewT | undefined }[] {
    return (this.stmts.allPending.all() as QuestionRow[]).map((r) => ({ requestId: r.request_id, sessionId: r.session_id, view: toView(r) }));
  }

  /** This question of this session was answered already. */
  isAnswered(requestId: string, sessionId: string): boolean {
    const row = this.stmts.get.get(requestId) as QuestionRow | undefined;
    return row?.session_id === sessionId && row.status === 'answered';
  }
}
