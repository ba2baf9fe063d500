// A tiny agent instrumented with the faultlens.* convention, using only
// @opentelemetry/api (docs/otel-convention.md, "TypeScript"). It plans,
// saves a note with a write tool whose first attempt times out and is
// re-sent with the same idempotency key, records the evidence the save
// produced, and states its terminal.
import { trace, SpanStatusCode } from "@opentelemetry/api";

const tracer = trace.getTracer("tiny-agent", "1.0.0");

class TimeoutError extends Error {
  name = "TimeoutError";
}

// The tool: its first call ever times out, the others succeed.
let saves = 0;
async function saveNote(text: string): Promise<string> {
  saves++;
  if (saves === 1) throw new TimeoutError("save_note timed out after 2000 ms");
  return `note-${saves}-${text.length}`;
}

export async function runAgent(runId: string, question: string): Promise<string> {
  return tracer.startActiveSpan(
    "invoke_agent tiny-agent",
    {
      attributes: {
        "gen_ai.operation.name": "invoke_agent",
        "gen_ai.agent.name": "tiny-agent",
        "gen_ai.agent.version": "1.0.0",
        "faultlens.event.type": "run",
        "faultlens.run.id": runId,
        "faultlens.run.suite": "ts-example",
        "faultlens.task.kind": "save_note",
        "faultlens.task.evidence_required": 1,
        "faultlens.run.retry_budget": 2,
      },
    },
    async (run) => {
      tracer.startActiveSpan(
        "stage planning",
        {
          attributes: {
            "faultlens.event.type": "stage",
            "faultlens.stage.id": "plan-1",
            "faultlens.stage.name": "planning",
            "faultlens.outcome": "ok",
            "faultlens.plan_valid": true,
          },
        },
        (stage) => stage.end(),
      );

      // One logical request (action) with up to two attempts; a write is
      // re-sent only with its idempotency key.
      const key = `${runId}/save-1`;
      let noteId = "";
      for (let attempt = 1; attempt <= 2 && noteId === ""; attempt++) {
        noteId = await tracer.startActiveSpan(
          "execute_tool save_note",
          {
            attributes: {
              "gen_ai.operation.name": "execute_tool",
              "gen_ai.tool.name": "save_note",
              "gen_ai.tool.call.id": `${runId}/call-${attempt}`,
              "faultlens.event.type": "tool_call",
              "faultlens.action_id": `${runId}/save-1`,
              "faultlens.attempt": attempt,
              "faultlens.tool.side_effect": "write",
              "faultlens.tool.idempotency_key": key,
              ...(attempt > 1
                ? { "faultlens.recovery": "retry", "faultlens.recovery_of": `${runId}/call-${attempt - 1}` }
                : {}),
            },
          },
          async (call) => {
            try {
              const id = await saveNote(question);
              call.setAttribute("faultlens.tool.status", "ok");
              // The evidence this call produced; its call_id is the span's.
              call.addEvent("faultlens.evidence", {
                "faultlens.evidence.id": `${runId}/ev-1`,
                "faultlens.evidence.claim": "note_saved",
                "faultlens.evidence.grade": "primary",
                "faultlens.evidence.status": "confirmed",
              });
              return id;
            } catch (err) {
              const e = err as Error;
              call.setAttributes({
                "faultlens.tool.status": "error",
                "error.type": e.name,
                "faultlens.error.category": "TIMEOUT",
                "faultlens.error.retryable": true,
                "faultlens.error.side_effect_state": "none",
              });
              call.setStatus({ code: SpanStatusCode.ERROR, message: e.message });
              return "";
            } finally {
              call.end();
            }
          },
        );
      }

      const answer = noteId ? `Saved your note as ${noteId}.` : "I could not save your note.";
      // The JS SDK anchors each span's clock at a whole millisecond, so an
      // event timed by the run span's clock can read up to 1 ms earlier than
      // a child that ended before it, and the terminal would look unsealed.
      // A high-resolution wall-clock time keeps it after them.
      run.addEvent("faultlens.terminal", {
        "faultlens.terminal": noteId ? "completed" : "failed",
        "faultlens.terminal.reason": noteId ? "ok" : "tool_unavailable",
        "faultlens.terminal.visible_chars": answer.length,
      }, performance.timeOrigin + performance.now());
      run.end();
      return answer;
    },
  );
}
