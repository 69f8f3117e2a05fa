// The marketing-plan flow (spec 002 §2): the goals step, the survey, then the suggested plan the
// server computed from the answers (suggestPlan, ./marketing-plan.ts); a plan big enough for a
// call offers the scheduling modal, whose answer is saved with the plan.
import { useId, useState, type FormEvent } from "react";
import { apiFetch } from "~/runtime/fetch.ts";
import { Dialog } from "~/ui/Dialog.tsx";
import { BUSINESS_GOALS } from "./onboarding.ts";
import type { MarketingPlanAnswers, MarketingPlanSuggestion } from "./marketing-plan.ts";

export interface PlanStrings {
  goalsStep: string;
  surveyStep: string;
  continue: string;
  back: string;
  submit: string;
  working: string;
  suggestion: string;
  goal: string;
  audience: string;
  budget: string;
  schedule: string;
  scheduleTitle: string;
  scheduleBody: string;
  scheduleWhen: string;
  scheduleConfirm: string;
  scheduleClose: string;
  scheduled: string;
  toDashboard: string;
  failed: string;
  fields: Record<string, string>;
  goals: Record<string, string>;
  audiences: Record<string, string>;
  topGoals: Record<string, string>;
}

export interface PlanProps {
  strings: PlanStrings;
  businessId: string;
  currency: string;
  language: string;
  dashboardHref: string;
  saved: { answers: MarketingPlanAnswers; suggestion: MarketingPlanSuggestion } | null;
}

type Phase = "goals" | "survey" | "result";
const COUNTS = ["dailyAdsBudget", "weeklyAddToCarts", "weeklyLeads", "weeklyCheckouts"] as const;

export default function MarketingPlanFlow({ strings, businessId, currency, language, dashboardHref, saved }: PlanProps) {
  const id = useId();
  const [phase, setPhase] = useState<Phase>(saved ? "result" : "goals");
  const [answers, setAnswers] = useState<Record<string, unknown>>(saved ? { ...saved.answers } : { dailyAdsBudget: 0, weeklyAddToCarts: 0, weeklyLeads: 0, weeklyCheckouts: 0, hasFeed: false });
  const [plan, setPlan] = useState(saved);
  const [sending, setSending] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [scheduling, setScheduling] = useState(false);
  const [when, setWhen] = useState("");

  async function save(body: Record<string, unknown>): Promise<boolean> {
    setSending(true);
    setProblem(null);
    try {
      const response = await apiFetch(`/v3/businesses/${businessId}/marketing_plan/`, { method: "PUT", body: JSON.stringify(body), headers: { "Content-Type": "application/json" } });
      const answer = (await response.json().catch(() => ({}))) as { data?: { marketing_plan?: PlanProps["saved"] }; message?: string; message_detail?: string | null };
      if (response.ok && answer.data?.marketing_plan) {
        setPlan(answer.data.marketing_plan);
        setPhase("result");
        return true;
      }
      setProblem([answer.message, answer.message_detail].filter(Boolean).join(" — ") || strings.failed);
    } catch {
      setProblem(strings.failed);
    } finally {
      setSending(false);
    }
    return false;
  }

  function submitGoals(event: FormEvent) {
    event.preventDefault();
    if (answers["topBusinessGoal"]) setPhase("survey");
  }

  function submitSurvey(event: FormEvent) {
    event.preventDefault();
    void save(answers);
  }

  const scheduledAt = plan?.answers.consultationAt;
  return (
    <>
      {phase === "goals" && (
        <form className="hub-form" onSubmit={submitGoals}>
          <fieldset className="hub-field">
            <legend>{strings.goalsStep}</legend>
            {BUSINESS_GOALS.map((goal) => (
              <label key={goal} className="hub-check">
                <input type="radio" name="topBusinessGoal" value={goal} checked={answers["topBusinessGoal"] === goal} onChange={() => setAnswers({ ...answers, topBusinessGoal: goal })} />
                {strings.topGoals[goal]}
              </label>
            ))}
          </fieldset>
          <div className="stepper-actions">
            <button type="submit" className="button primary" disabled={!answers["topBusinessGoal"]}>
              {strings.continue}
            </button>
          </div>
        </form>
      )}
      {phase === "survey" && (
        <form className="hub-form" onSubmit={submitSurvey} aria-labelledby={`${id}-survey`}>
          <h2 id={`${id}-survey`}>{strings.surveyStep}</h2>
          {COUNTS.map((field) => (
            <div key={field} className="hub-field">
              <label htmlFor={`${id}-${field}`}>{strings.fields[field]}</label>
              <input id={`${id}-${field}`} type="number" inputMode="numeric" min={0} max={field === "dailyAdsBudget" ? 1_000_000 : 10_000_000} step={1} value={String(answers[field] ?? 0)} onChange={(event) => setAnswers({ ...answers, [field]: Math.max(0, Math.floor(Number(event.currentTarget.value) || 0)) })} />
            </div>
          ))}
          <label className="hub-check">
            <input type="checkbox" checked={answers["hasFeed"] === true} onChange={(event) => setAnswers({ ...answers, hasFeed: event.currentTarget.checked })} />
            {strings.fields["hasFeed"]}
          </label>
          <div className="stepper-actions">
            <button type="button" className="button" onClick={() => setPhase("goals")} disabled={sending}>
              {strings.back}
            </button>
            <button type="submit" className="button primary" disabled={sending} aria-busy={sending}>
              {sending ? strings.working : strings.submit}
            </button>
          </div>
        </form>
      )}
      {phase === "result" && plan && (
        <section className="hub-section" aria-labelledby={`${id}-result`}>
          <h2 id={`${id}-result`}>{strings.suggestion}</h2>
          <dl className="plan-result">
            <dt>{strings.goal}</dt>
            <dd data-plan-goal={plan.suggestion.goal}>{strings.goals[plan.suggestion.goal]}</dd>
            <dt>{strings.audience}</dt>
            <dd>{strings.audiences[plan.suggestion.audienceSize]}</dd>
            <dt>{strings.budget}</dt>
            <dd>{new Intl.NumberFormat(language, { style: "currency", currency }).format(plan.suggestion.dailyBudget)}</dd>
          </dl>
          {scheduledAt !== undefined && <p role="status">{strings.scheduled.replace("{{when}}", new Date(scheduledAt).toLocaleString(language, { dateStyle: "medium", timeStyle: "short" }))}</p>}
          <div className="stepper-actions">
            {plan.suggestion.calendlyUpsellEligible && scheduledAt === undefined && (
              <button type="button" className="button" onClick={() => setScheduling(true)}>
                {strings.schedule}
              </button>
            )}
            <a className="button primary" href={dashboardHref}>
              {strings.toDashboard}
            </a>
          </div>
        </section>
      )}
      <p className="hub-status is-error" role="alert">
        {problem}
      </p>
      <Dialog open={scheduling} onClose={() => setScheduling(false)} className="hub-dialog" title={strings.scheduleTitle} closeLabel={strings.scheduleClose} busy={sending}>
        <form
          className="hub-form"
          onSubmit={(event) => {
            event.preventDefault();
            const at = Date.parse(when);
            if (!plan || Number.isNaN(at)) return;
            void save({ ...plan.answers, consultationAt: at }).then((ok) => ok && setScheduling(false));
          }}
        >
          <p>{strings.scheduleBody}</p>
          <div className="hub-field">
            <label htmlFor={`${id}-when`}>{strings.scheduleWhen}</label>
            <input id={`${id}-when`} type="datetime-local" required value={when} onChange={(event) => setWhen(event.currentTarget.value)} />
          </div>
          <button type="submit" className="button primary" disabled={sending || when === ""}>
            {strings.scheduleConfirm}
          </button>
        </form>
      </Dialog>
    </>
  );
}
