// Invites of the demo world (src/server/migrations/0007_invites.sql). Built from a finished
// world without changing it (buildWorld's output and its determinism tests stay as they were);
// these rows are extra. The codes are fixed and public, so anyone can try every case of spec
// 000 §6 on a running demo; real codes are 16 random bytes (src/invites/invites.server.ts).
// D1 stores only each code's SHA-256, as the server does.
import { createHash } from "node:crypto";
import { FIXTURES, type World } from "./world.ts";

type InviteRow = {
  id: string;
  sender_id: number;
  invite_channel: number;
  object_type: "pin" | "board";
  object_id: number;
  created_at: number;
  expires_at: number;
};

export type InviteTables = { invites: InviteRow[] };

const DAY = 24 * 60 * 60 * 1000;
/** Demo invites outlive any demo: ten years from the world's epoch. */
const DEMO_LIFETIME = 3650 * DAY;

type Fixture = { code: string; sender: number; channel: number; object: "pin" | "board"; id: number; expired?: boolean; what: string };

/** The demo codes (22 URL-safe characters, the shape the server mints). */
export const INVITE_FIXTURES = {
  /** demo → pin 100001 by email (channel 1): signed-out desktop visitors see the inviter popover. */
  popover: "demoInviteEmailPin0001",
  /** demo → pin 100001 by copy link (channel 12): no popover. */
  copyLink: "demoInviteCopyLink0012",
  /** sam → pin 100001 by message (channel 3): signed in as demo, the messaging toast shows. */
  toast: "samInviteMessagePin003",
  /** demo → pin 100013 on the secret board: a stranger gets the same 404 as an unknown code. */
  secret: "demoInviteSecretPin013",
  /** demo → pin 100001, expired: the same 404. */
  expired: "demoInviteExpiredPin01",
  /** sam → public board 10010 by WhatsApp (channel 4). */
  board: "samInviteBoard10010wa4",
} as const;

const FIXTURE_ROWS: Fixture[] = [
  { code: INVITE_FIXTURES.popover, sender: FIXTURES.users.demo, channel: 1, object: "pin", id: FIXTURES.pins.image, what: "popover" },
  { code: INVITE_FIXTURES.copyLink, sender: FIXTURES.users.demo, channel: 12, object: "pin", id: FIXTURES.pins.image, what: "copy link" },
  { code: INVITE_FIXTURES.toast, sender: FIXTURES.users.friend, channel: 3, object: "pin", id: FIXTURES.pins.image, what: "toast" },
  { code: INVITE_FIXTURES.secret, sender: FIXTURES.users.demo, channel: 1, object: "pin", id: FIXTURES.pins.secret, what: "secret" },
  { code: INVITE_FIXTURES.expired, sender: FIXTURES.users.demo, channel: 1, object: "pin", id: FIXTURES.pins.image, expired: true, what: "expired" },
  { code: INVITE_FIXTURES.board, sender: FIXTURES.users.friend, channel: 4, object: "board", id: FIXTURES.boards.friendTravel, what: "board" },
];

export const inviteKey = (code: string) => createHash("sha256").update(code).digest("hex");

export function buildInvites(world: World): InviteTables {
  const users = new Set(world.tables.users.map((row) => row.id));
  const pins = new Set(world.tables.pins.map((row) => row.id));
  const boards = new Set(world.tables.boards.map((row) => row.id));
  const invites = FIXTURE_ROWS.map((fixture): InviteRow => {
    const exists = fixture.object === "pin" ? pins.has(fixture.id) : boards.has(fixture.id);
    if (!users.has(fixture.sender) || !exists) throw new Error(`invite fixture ${fixture.what}: missing sender or ${fixture.object}`);
    const createdAt = world.baseEpoch - (fixture.expired ? 60 * DAY : DAY);
    return {
      id: inviteKey(fixture.code),
      sender_id: fixture.sender,
      invite_channel: fixture.channel,
      object_type: fixture.object,
      object_id: fixture.id,
      created_at: createdAt,
      expires_at: fixture.expired ? createdAt + 30 * DAY : world.baseEpoch + DEMO_LIFETIME,
    };
  });
  return { invites };
}
