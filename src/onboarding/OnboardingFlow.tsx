// Onboarding as one island (spec 001 §2: it starts at `welcome`): welcome, topics, creators,
// country and language. Each step's move is saved on the account before the next shows
// (PUT /v3/users/me/onboarding/), so a person who leaves comes back to the step they were on.
// Topics and creators are followed through the same calls (and stores) as everywhere else, at
// the click. Skip ends onboarding from any step. The step's heading takes focus when it
// changes, so a screen reader hears where it is.
import { useStore } from "@nanostores/react";
import { useEffect, useRef, useState } from "react";
import { call } from "~/api/api.client.ts";
import { fill } from "~/saves/strings.ts";
import { formatCount } from "~/social/plural.ts";
import { $topics, $userFollows, seed, toggleTopic, toggleUserFollow } from "~/social/store.ts";
import { ONBOARDING_STEPS, isFinished, nextState, type CreatorAnswer, type OnboardingState, type OnboardingStep } from "./onboarding.ts";
import type { OnboardingStrings } from "./strings.ts";

interface OnboardingTopic {
  id: string;
  /** The topic's name in the page's language. */
  label: string;
  is_followed: boolean;
}

interface Option {
  value: string;
  label: string;
}

interface OnboardingFlowProps {
  step: OnboardingStep;
  firstName: string;
  topics: OnboardingTopic[];
  countries: Option[];
  languages: Option[];
  country: string;
  locale: string;
  /** Where a person goes when onboarding ends (a same-site path). */
  next: string;
  /** The page's language tag, for counts. */
  language: string;
  strings: OnboardingStrings;
}

type Creators = { kind: "loading" } | { kind: "failed" } | { kind: "loaded"; creators: CreatorAnswer[] };

const saveStep = (body: Record<string, string>) => call<{ step: OnboardingState }>("/v3/users/me/onboarding/", { method: "PUT", body: { json: body } });

export default function OnboardingFlow({ step: initial, firstName, topics, countries, languages, country: initialCountry, locale: initialLocale, next, language, strings }: OnboardingFlowProps) {
  const [step, setStep] = useState<OnboardingStep>(initial);
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState(false);
  const [creators, setCreators] = useState<Creators>({ kind: "loading" });
  const [creatorsRound, setCreatorsRound] = useState(0);
  const [country, setCountry] = useState(initialCountry);
  const [locale, setLocale] = useState(initialLocale);
  const heading = useRef<HTMLHeadingElement>(null);
  const moved = useRef(false);
  useState(() => {
    for (const topic of topics) seed($topics, topic.id, { id: topic.id, is_followed: topic.is_followed });
  });
  const topicStates = useStore($topics);
  const follows = useStore($userFollows);
  const words = strings.words;
  const index = ONBOARDING_STEPS.indexOf(step);

  useEffect(() => {
    if (moved.current) heading.current?.focus();
    moved.current = true;
  }, [step]);

  // Suggestions follow the topics just picked, so they are read each time the step opens.
  useEffect(() => {
    if (step !== "creators") return;
    let live = true;
    call<CreatorAnswer[]>("/v3/orientation/nux_creator_recommendations/").then(
      (found) => {
        if (!live) return;
        for (const creator of found) seed($userFollows, creator.id, { explicitly_followed_by_me: creator.explicitly_followed_by_me, follower_count: creator.follower_count, blocked_by_me: false });
        setCreators({ kind: "loaded", creators: found });
      },
      () => {
        if (live) setCreators({ kind: "failed" });
      },
    );
    return () => {
      live = false;
    };
  }, [step, creatorsRound]);

  /** Saves the move, then shows the step (or leaves when onboarding ended). */
  async function move(target: OnboardingState, extra: Record<string, string> = {}) {
    setBusy(true);
    setFailed(false);
    try {
      const answer = await saveStep({ step: target, ...extra });
      if (isFinished(answer.step)) {
        window.location.assign(next);
        return;
      }
      if (answer.step === "creators") setCreators({ kind: "loading" });
      setStep(answer.step as OnboardingStep);
    } catch {
      setFailed(true);
    }
    setBusy(false);
  }

  const back = index > 0 ? ONBOARDING_STEPS[index - 1]! : null;
  const picked = topics.filter((topic) => topicStates[topic.id]?.is_followed ?? topic.is_followed).length;

  return (
    <section className="onboarding" aria-labelledby="onboarding-heading" data-hydrated="true" data-step={step}>
      <p className="onboarding-progress">{fill(words["progress"], { current: index + 1, total: ONBOARDING_STEPS.length })}</p>
      {step === "welcome" && (
        <>
          <h1 id="onboarding-heading" ref={heading} tabIndex={-1} dir="auto">
            {fill(words["welcome.heading"], { name: firstName })}
          </h1>
          <p>{words["welcome.text"]}</p>
        </>
      )}
      {step === "interests" && (
        <>
          <h1 id="onboarding-heading" ref={heading} tabIndex={-1}>
            {words["interests.heading"]}
          </h1>
          <p>{words["interests.text"]}</p>
          <ul className="onboarding-topics" aria-label={words["interests.listLabel"]}>
            {topics.map((topic) => {
              const followed = topicStates[topic.id]?.is_followed ?? topic.is_followed;
              return (
                <li key={topic.id}>
                  <button type="button" className={followed ? "onboarding-topic picked" : "onboarding-topic"} aria-pressed={followed} onClick={() => void toggleTopic(topic.id)}>
                    <span dir="auto">{topic.label}</span>
                  </button>
                </li>
              );
            })}
          </ul>
          <p className="onboarding-hint" role="status">
            {formatCount(strings.counted["interests.picked"], language, picked)}
          </p>
        </>
      )}
      {step === "creators" && (
        <>
          <h1 id="onboarding-heading" ref={heading} tabIndex={-1}>
            {words["creators.heading"]}
          </h1>
          <p>{words["creators.text"]}</p>
          {creators.kind === "loading" && <p role="status">{words["creators.loading"]}</p>}
          {creators.kind === "failed" && (
            <p role="alert">
              {words["creators.loadError"]}{" "}
              <button
                type="button"
                className="button small"
                onClick={() => {
                  setCreators({ kind: "loading" });
                  setCreatorsRound((round) => round + 1);
                }}
              >
                {words["creators.retry"]}
              </button>
            </p>
          )}
          {creators.kind === "loaded" && creators.creators.length === 0 && <p>{words["creators.empty"]}</p>}
          {creators.kind === "loaded" && creators.creators.length > 0 && (
            <ul className="onboarding-creators" aria-label={words["creators.listLabel"]}>
              {creators.creators.map((creator) => {
                const followed = follows[creator.id]?.explicitly_followed_by_me ?? false;
                const name = creator.full_name || creator.username;
                return (
                  <li key={creator.id} className="onboarding-creator">
                    <div className="onboarding-previews" aria-hidden="true">
                      {creator.preview_images.map((url) => (
                        <img key={url} src={url} alt="" width={80} height={120} loading="lazy" />
                      ))}
                    </div>
                    <div className="onboarding-creator-who">
                      {creator.image_medium_url ? <img className="onboarding-avatar" src={creator.image_medium_url} alt="" width={48} height={48} /> : <span className="onboarding-avatar" aria-hidden="true" />}
                      <div>
                        <a href={`/${creator.username}/`} dir="auto" className="onboarding-creator-name" id={`onboarding-creator-${creator.id}`}>
                          {name}
                        </a>
                        <p className="onboarding-hint">
                          {creator.pins_in_your_topics > 0
                            ? formatCount(strings.counted["creators.inYourTopics"], language, creator.pins_in_your_topics)
                            : formatCount(strings.counted["creators.followers"], language, follows[creator.id]?.follower_count ?? creator.follower_count)}
                        </p>
                      </div>
                    </div>
                    <button
                      type="button"
                      className={followed ? "button" : "button primary"}
                      aria-pressed={followed}
                      aria-describedby={`onboarding-creator-${creator.id}`}
                      onClick={() => void toggleUserFollow(creator.id, words["creators.followFailed"])}
                    >
                      {followed ? words["creators.following"] : words["creators.follow"]}
                    </button>
                  </li>
                );
              })}
            </ul>
          )}
        </>
      )}
      {step === "locale" && (
        <>
          <h1 id="onboarding-heading" ref={heading} tabIndex={-1}>
            {words["locale.heading"]}
          </h1>
          <p>{words["locale.text"]}</p>
          <div className="onboarding-fields">
            <label>
              <span>{words["locale.country"]}</span>
              <select name="country" value={country} onChange={(event) => setCountry(event.target.value)}>
                {countries.map((option) => (
                  <option key={option.value} value={option.value}>
                    {option.label}
                  </option>
                ))}
              </select>
            </label>
            <label>
              <span>{words["locale.language"]}</span>
              <select name="locale" value={locale} onChange={(event) => setLocale(event.target.value)}>
                {languages.map((option) => (
                  <option key={option.value} value={option.value}>
                    {option.label}
                  </option>
                ))}
              </select>
            </label>
          </div>
        </>
      )}
      {failed && (
        <p role="alert" className="onboarding-error">
          {words["error"]}
        </p>
      )}
      <div className="onboarding-actions">
        {step === "locale" ? (
          <button type="button" className="button primary" disabled={busy} onClick={() => void move("done", { country, locale })}>
            {busy ? words["actions.saving"] : words["actions.finish"]}
          </button>
        ) : (
          <button type="button" className="button primary" disabled={busy} onClick={() => void move(nextState(step))}>
            {busy ? words["actions.saving"] : step === "welcome" ? words["actions.start"] : words["actions.next"]}
          </button>
        )}
        {back && (
          <button type="button" className="button" disabled={busy} onClick={() => void move(back)}>
            {words["actions.back"]}
          </button>
        )}
        <button type="button" className="button onboarding-skip" disabled={busy} onClick={() => void move("skipped")}>
          {words["actions.skip"]}
        </button>
      </div>
    </section>
  );
}
