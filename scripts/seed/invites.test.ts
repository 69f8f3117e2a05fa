import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { INVITE_CODE_PATTERN, isInviteChannel } from "../../src/invites/invite.ts";
import { INVITE_FIXTURES, buildInvites, inviteKey } from "./invites.ts";
import { FIXTURES, buildWorld } from "./world.ts";

const world = buildWorld({ pins: 120 });
const { invites } = buildInvites(world);

describe("demo invites", () => {
  it("have codes of the shape the server mints, stored only as SHA-256", () => {
    for (const code of Object.values(INVITE_FIXTURES)) expect(code, code).toMatch(INVITE_CODE_PATTERN);
    expect(invites.map((row) => row.id)).toEqual(Object.values(INVITE_FIXTURES).map((code) => createHash("sha256").update(code).digest("hex")));
    expect(JSON.stringify(invites)).not.toContain("Invite");
  });

  it("cover the cases of spec 000 §6 and the not-found rule", () => {
    const row = (code: string) => invites.find((invite) => invite.id === inviteKey(code))!;
    expect(row(INVITE_FIXTURES.popover)).toMatchObject({ sender_id: FIXTURES.users.demo, invite_channel: 1, object_type: "pin", object_id: FIXTURES.pins.image });
    expect(row(INVITE_FIXTURES.copyLink)).toMatchObject({ invite_channel: 12, object_id: FIXTURES.pins.image });
    expect(row(INVITE_FIXTURES.toast)).toMatchObject({ sender_id: FIXTURES.users.friend, object_id: FIXTURES.pins.image });
    expect(row(INVITE_FIXTURES.secret)).toMatchObject({ object_type: "pin", object_id: FIXTURES.pins.secret });
    expect(row(INVITE_FIXTURES.expired).expires_at).toBeLessThan(world.baseEpoch);
    expect(row(INVITE_FIXTURES.board)).toMatchObject({ object_type: "board", object_id: FIXTURES.boards.friendTravel });
    const secretPin = world.tables.pins.find((pin) => pin.id === FIXTURES.pins.secret);
    expect(world.tables.boards.find((board) => board.id === secretPin?.board_id)?.privacy).toBe("secret");
  });

  it("respect the table's checks and are the same for every world size", () => {
    for (const invite of invites) {
      expect(isInviteChannel(invite.invite_channel)).toBe(true);
      expect(invite.expires_at).toBeGreaterThan(invite.created_at);
    }
    expect(buildInvites(buildWorld({ pins: 1000 }))).toEqual({ invites });
  });
});
