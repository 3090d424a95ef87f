import type { OutcomeKind, OutcomeStore } from "../ports";
import type { Ctx } from "./shared";

export function outcomeStore({ db }: Ctx): OutcomeStore {
  return {
    async outcomeTotals(projectId, sinceHour) {
      const rows = await db
        .selectFrom("outcomes")
        .select(["category", "outcome", "reason", (eb) => eb.fn.sum<number | string>("quantity").as("quantity")])
        .where("project_id", "=", projectId)
        .where("hour", ">=", sinceHour)
        .groupBy(["category", "outcome", "reason"])
        .orderBy("outcome")
        .orderBy("category")
        .orderBy("reason")
        .execute();
      return rows.map((r) => ({ category: r.category, outcome: r.outcome as OutcomeKind, reason: r.reason, quantity: Number(r.quantity) }));
    },
    async outcomeSeries(projectId, { sinceHour, untilHour, outcomes, categories }) {
      if (outcomes.length === 0 || categories.length === 0) return [];
      const rows = await db
        .selectFrom("outcomes")
        .select(["hour", (eb) => eb.fn.sum<number | string>("quantity").as("quantity")])
        .where("project_id", "=", projectId)
        .where("hour", ">=", sinceHour)
        .where("hour", "<=", untilHour)
        .where("outcome", "in", outcomes)
        .where("category", "in", categories)
        .groupBy("hour")
        .orderBy("hour")
        .execute();
      return rows.map((r) => ({ hour: r.hour, quantity: Number(r.quantity) }));
    },
  };
}
