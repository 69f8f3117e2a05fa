// A pin's topics with a Follow toggle each (spec 000 §4: optimistic; §8: a failure reverts silently).
import { useStore } from "@nanostores/react";
import { useState } from "react";
import type { TopicState } from "./follows.ts";
import { $topics, seed, toggleTopic } from "./store.ts";
import { perViewer } from "~/member-page/viewer-values.ts";

interface TopicFollowListProps {
  topics: Array<TopicState & { name: string; followLabel: string }>;
  labels: { heading: string; follow: string; following: string };
  headingId: string;
}

function TopicFollowList({ topics, labels, headingId }: TopicFollowListProps) {
  useState(() => {
    for (const topic of topics) seed($topics, topic.id, { id: topic.id, is_followed: topic.is_followed });
  });
  const states = useStore($topics);
  return (
    <ul className="social-topics" aria-labelledby={headingId} data-hydrated="true">
      {topics.map((topic) => {
        const followed = states[topic.id]?.is_followed ?? topic.is_followed;
        return (
          <li key={topic.id}>
            <span dir="auto">{topic.name}</span>
            <button type="button" className="button small" aria-pressed={followed} aria-label={topic.followLabel} onClick={() => void toggleTopic(topic.id)}>
              {followed ? labels.following : labels.follow}
            </button>
          </li>
        );
      })}
    </ul>
  );
}

/** The island as pages mount it: on a member page, its slot's values over its props. */
export default perViewer(TopicFollowList);
