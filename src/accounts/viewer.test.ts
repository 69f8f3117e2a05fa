import { describe, expect, it } from "vitest";
import { accountCornerOf, toLimitedViewer, toViewer, type ViewerUserRow } from "./viewer.ts";

const row = (patch: Partial<ViewerUserRow>) =>
  ({ id: 7, username: "sam", email: "sam@pinloom.test", has_password: 0, full_name: "Sam Okafor", first_name: "Sam", image_key: "users/7", login_state: "full", connected_networks: "{}", created_at: 0, resurrection_date: null, pin_count: 0, ...patch }) as ViewerUserRow;

describe("the header's account corner", () => {
  it("shows what the full viewer says for a full login", () => {
    const user = row({});
    const viewer = toViewer(user);
    expect(accountCornerOf(user)).toEqual({ id: viewer.id, name: viewer.full_name, username: viewer.username, imageUrl: viewer.image_medium_url });
    expect(accountCornerOf(row({ full_name: "" })).name).toBe("sam");
  });

  it("shows what the limited viewer says for a limited login", () => {
    const user = row({ login_state: "limited", image_key: null });
    const limited = toLimitedViewer(user);
    expect(accountCornerOf(user)).toEqual({ id: null, name: limited.firstName, username: null, imageUrl: limited.imageUrl });
  });
});

describe("the viewer's password facts", () => {
  it("come from has_password, the only password column a viewer is read with", () => {
    expect(toViewer(row({ has_password: 1, has_mfa_enabled: 0 }))).toMatchObject({ has_password: true, can_enable_mfa: true });
    expect(toViewer(row({ has_password: 1, has_mfa_enabled: 1 }))).toMatchObject({ has_password: true, can_enable_mfa: false });
    expect(toViewer(row({ has_password: 0 }))).toMatchObject({ has_password: false, can_enable_mfa: false });
    expect(toLimitedViewer(row({ has_password: 1 })).hasPassword).toBe(true);
  });
});
