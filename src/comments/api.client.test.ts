// The tried-it photo upload goes through the runtime fetch layer like every other island call:
// the spec's headers, the CSRF token from the cookie, and a multipart body the browser types.
import { describe, expect, it } from "vitest";
import { ApiCallError, NetworkError } from "~/api/api.client.ts";
import { uploadDidItPhoto } from "./api.client.ts";

function scripted(answer: () => Response | Promise<Response>) {
  const calls: Array<{ url: string; init: RequestInit }> = [];
  const transport = {
    fetch: async (input: RequestInfo | URL, init?: RequestInit) => {
      calls.push({ url: String(input), init: init ?? {} });
      return answer();
    },
    cookie: () => "other=1; csrftoken=tok%2Ben",
  };
  return { calls, transport };
}

const photo = () => new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], "p.png", { type: "image/png" });

describe("uploadDidItPhoto", () => {
  it("posts the multipart form with the fetch layer's headers and answers the signature", async () => {
    const { calls, transport } = scripted(() => Response.json({ status: "success", code: 0, message: "ok", data: { image_signature: "ab".repeat(16) } }));
    expect(await uploadDidItPhoto(photo(), "42", transport)).toBe("ab".repeat(16));
    expect(calls).toHaveLength(1);
    const [{ url, init }] = calls as [{ url: string; init: RequestInit }];
    expect(url).toBe("/v3/did_it/photos/");
    expect(init.method).toBe("POST");
    expect(init.credentials).toBe("include");
    const headers = new Headers(init.headers);
    expect(headers.get("X-CSRFToken")).toBe("tok+en");
    expect(headers.get("X-Requested-With")).toBe("XMLHttpRequest");
    expect(headers.get("Accept")).toBe("application/json");
    expect(headers.get("X-Pinloom-Source-Url")).not.toBeNull();
    expect(headers.get("X-Pinloom-App-State")).toBe("active");
    // The browser sets multipart/form-data with its boundary.
    expect(headers.get("Content-Type")).toBeNull();
    const form = init.body as FormData;
    expect(form.get("pin_id")).toBe("42");
    expect(form.get("photo")).toBeInstanceOf(File);
  });

  it("a failure envelope is an ApiCallError with its status; a network failure a NetworkError", async () => {
    const refused = scripted(() => Response.json({ status: "failure", code: 1, message: "Too big", data: null }, { status: 400 }));
    await expect(uploadDidItPhoto(photo(), "42", refused.transport)).rejects.toMatchObject({ name: "ApiCallError", httpStatus: 400 });
    await expect(uploadDidItPhoto(photo(), "42", refused.transport)).rejects.toBeInstanceOf(ApiCallError);
    const offline = scripted(() => Promise.reject(new TypeError("offline")));
    await expect(uploadDidItPhoto(photo(), "42", offline.transport)).rejects.toBeInstanceOf(NetworkError);
  });
});
