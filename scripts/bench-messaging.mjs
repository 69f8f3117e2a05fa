// Messaging figures for `npm run bench` (`--no-messaging` skips them), on the product's worker
// as signed-in demo accounts: messages per second through a conversation's Durable Object and
// the delivery latency (p50, p99) from the moment a send is made to the moment a second
// connected client's socket receives it. Every message is sent through the real API (stored in
// D1, then handed to the room), and every one must arrive exactly once: a lost or doubled
// message fails the phase rather than being counted as speed.
//
// Two runs: one message at a time (the latency a person sees), then two senders with four sends
// in flight each (what the room sustains). Each sender stays under the per-person send limit
// (src/server/rate-limit.server.ts, 120 a minute); the bench clears the throttles before it
// starts, and nothing else it runs sends messages.
import { randomUUID } from "node:crypto";

const PASSWORD = "PinloomDemo#2026"; // docs/demo-accounts.md
const UA = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36";
const LISTENER = "sam";
const SEQUENTIAL_SENDER = "demo";
const CONCURRENT_SENDERS = ["marlowandmain", "bakeandbloom"];
const SEQUENTIAL_MESSAGES = 50;
const CONCURRENT_MESSAGES_PER_SENDER = 110;
const IN_FLIGHT_PER_SENDER = 4;
const ARRIVAL_TIMEOUT_MS = 15_000;

const percentile = (sorted, p) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] : null);
const round = (value, digits = 1) => (value === null ? null : Math.round(value * 10 ** digits) / 10 ** digits);

async function signIn(url, username) {
  const token = "b".repeat(64);
  const base = { "user-agent": UA, origin: url, cookie: `csrftoken=${token}`, "x-csrftoken": token };
  const handshake = await fetch(`${url}/v3/login/handshake/`, {
    method: "POST",
    headers: { ...base, "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ username_or_email: username, password: PASSWORD, referrer: "" }),
  });
  const loginToken = (await handshake.json())?.data?.token;
  if (!loginToken) throw new Error(`${username}: login handshake answered ${handshake.status}`);
  const exchange = await fetch(`${url}/v3/sessions/exchange/`, {
    method: "POST",
    headers: { ...base, "content-type": "application/json" },
    body: JSON.stringify({ token: loginToken, isRegistration: false }),
  });
  const session = exchange.headers.getSetCookie().map((line) => line.split(";")[0]).find((pair) => pair.startsWith("__Host-pinloom_sess="));
  if (!session) throw new Error(`${username}: session exchange answered ${exchange.status}`);
  return { username, headers: { ...base, cookie: `${base.cookie}; ${session}` } };
}

async function resource(url, person, name, action, options) {
  const response = await fetch(`${url}/resource/${name}/${action}/`, {
    method: "POST",
    headers: { ...person.headers, "content-type": "application/json", "x-client-request-id": randomUUID() },
    body: JSON.stringify({ options }),
  });
  const body = await response.json();
  if (response.status !== 200) throw new Error(`${person.username} ${name} ${action} answered ${response.status}: ${JSON.stringify(body).slice(0, 200)}`);
  return body.resource_response.data;
}

async function userId(url, person, username) {
  const response = await fetch(`${url}/resource/ShareSuggestionsResource/get/?data=${encodeURIComponent(JSON.stringify({ options: { suggestion_type: "share", hide_group_conversations: true, query: username } }))}`, {
    headers: { "user-agent": UA, cookie: person.headers.cookie },
  });
  const found = (await response.json())?.resource_response?.data?.results?.find((user) => user.username === username);
  if (!found) throw new Error(`no user named ${username} (seed the demo world)`);
  return found.id;
}

/** The listener's socket: every message id it receives, with when. */
function listen(url, person, conversationId) {
  const socketUrl = `${url.replace(/^http/, "ws")}/v3/conversations/${conversationId}/socket/`;
  const socket = new WebSocket(socketUrl, { headers: { cookie: person.headers.cookie, origin: url, "user-agent": UA } });
  const arrivals = new Map();
  const benchIds = new Set();
  let duplicated = 0;
  const waiters = new Map();
  let ready;
  const opened = new Promise((resolve, reject) => {
    ready = resolve;
    socket.addEventListener("error", () => reject(new Error("the listener's socket failed to open")), { once: true });
  });
  socket.addEventListener("open", () => socket.send(JSON.stringify({ type: "hello", after: null })));
  socket.addEventListener("message", (event) => {
    const at = performance.now();
    const frame = JSON.parse(String(event.data));
    if (frame.type !== "messages") return;
    ready();
    for (const message of frame.messages) {
      if (arrivals.has(message.id)) {
        // A catch-up repeating what came live is merged by id in the island; here it only counts.
        if (message.text.startsWith("bench ")) duplicated++;
        continue;
      }
      arrivals.set(message.id, at);
      if (message.text.startsWith("bench ")) benchIds.add(message.id);
      waiters.get(message.id)?.(at);
      waiters.delete(message.id);
    }
  });
  return {
    opened,
    received: () => benchIds.size,
    duplicated: () => duplicated,
    arrival(id) {
      if (arrivals.has(id)) return Promise.resolve(arrivals.get(id));
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`message ${id} never reached the second client`)), ARRIVAL_TIMEOUT_MS);
        waiters.set(id, (at) => {
          clearTimeout(timer);
          resolve(at);
        });
      });
    },
    close: () => socket.close(1000, "bench done"),
  };
}

/** Sends `count` messages from `person`, `inFlight` at a time; each one's send start and its arrival at the listener. */
async function sendMany(url, person, conversationId, listener, count, inFlight) {
  const latencies = [];
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const index = next++;
      const started = performance.now();
      const message = await resource(url, person, "ConversationMessageResource", "create", { conversation_id: conversationId, text: `bench ${person.username} ${index}`, source: "bench" });
      latencies.push((await listener.arrival(message.id)) - started);
    }
  };
  await Promise.all(Array.from({ length: inFlight }, worker));
  return latencies;
}

function summary(latencies, elapsedMs) {
  const sorted = [...latencies].sort((a, b) => a - b);
  return {
    messages: latencies.length,
    messages_per_s: round((latencies.length / elapsedMs) * 1000),
    delivery_latency_p50_ms: round(percentile(sorted, 50)),
    delivery_latency_p99_ms: round(percentile(sorted, 99)),
  };
}

export async function runMessagingBench({ url, log }) {
  const [listener, sequential, ...concurrent] = await Promise.all([LISTENER, SEQUENTIAL_SENDER, ...CONCURRENT_SENDERS].map((name) => signIn(url, name)));
  const ids = await Promise.all([LISTENER, ...CONCURRENT_SENDERS].map((name) => userId(url, sequential, name)));
  const conversation = await resource(url, sequential, "ConversationsResource", "create", { user_ids: ids, text: "A group for the messaging figures", source: "bench" });
  const socket = listen(url, listener, conversation.id);
  await socket.opened;
  try {
    let started = performance.now();
    const one = await sendMany(url, sequential, conversation.id, socket, SEQUENTIAL_MESSAGES, 1);
    const oneAtATime = summary(one, performance.now() - started);
    log(`[bench] messaging one at a time: ${oneAtATime.messages_per_s} msg/s, delivery p50 ${oneAtATime.delivery_latency_p50_ms} ms, p99 ${oneAtATime.delivery_latency_p99_ms} ms`);
    started = performance.now();
    const many = (await Promise.all(concurrent.map((person) => sendMany(url, person, conversation.id, socket, CONCURRENT_MESSAGES_PER_SENDER, IN_FLIGHT_PER_SENDER)))).flat();
    const together = summary(many, performance.now() - started);
    log(`[bench] messaging ${concurrent.length} senders × ${IN_FLIGHT_PER_SENDER} in flight: ${together.messages_per_s} msg/s, delivery p50 ${together.delivery_latency_p50_ms} ms, p99 ${together.delivery_latency_p99_ms} ms`);
    const expected = SEQUENTIAL_MESSAGES + CONCURRENT_MESSAGES_PER_SENDER * concurrent.length;
    const received = socket.received();
    return {
      messages_per_s: together.messages_per_s,
      delivery_latency_p50_ms: oneAtATime.delivery_latency_p50_ms,
      delivery_latency_p99_ms: oneAtATime.delivery_latency_p99_ms,
      one_at_a_time: oneAtATime,
      concurrent: { senders: concurrent.length, in_flight_per_sender: IN_FLIGHT_PER_SENDER, ...together },
      sent: expected,
      received,
      lost: Math.max(0, expected - received),
      duplicated: socket.duplicated(),
    };
  } finally {
    socket.close();
  }
}
