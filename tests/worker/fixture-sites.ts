// The web pages the Worker tests read, served to the Worker's own outbound fetch() by the
// `worker` project's miniflare `outboundService` (vitest.config.mts). It runs in Node beside the
// tests, so the Worker under test keeps its real fetch path: no fixture route, no host
// allow-list, no test switch in what deploys. Any other outbound fetch is refused: the Worker
// tests never reach the network.
//
// https://pages.fixture.example/
//   many             61 distinct large images (one og:image, 60 img): more than the 50 answered
//   relative/page.html  relative, root-relative, protocol-relative, srcset and lazy images, a
//                    tiny one, a data URI, a duplicate; title, description, relative canonical
//   blocked          images on a blocked host and its subdomain beside allowed ones; a canonical
//                    link on the blocked host
//   redirect-to-page 301 to relative/page.html
//   redirect-private 302 to http://127.0.0.1/admin;  redirect-decimal 302 to http://2130706433/
//   redirect-mapped  302 to http://[::ffff:169.254.169.254]/
//   redirect-loop    302 to itself, for ever
//   huge             one image, 1.5 MB of markup, then another image
//   data.json        JSON, not HTML
//   counted          a page that counts how often it is fetched; __hits/counted answers the count
//   missing          404
//   slow             sends its first bytes, then nothing more, never ending
//   images/photo.png a real PNG (2×2, with GPS EXIF);  images/not-image.jpg  text named .jpg
//   redirect-image-private  302 to http://10.0.0.5/photo.png
import { PNG_2X2 } from "./photo-fixture.ts";

export const FIXTURE_SITE = "https://pages.fixture.example";

const html = (body: string, status = 200) => new Response(body, { status, headers: { "content-type": "text/html; charset=utf-8" } });
const redirect = (location: string, status = 302) => new Response(null, { status, headers: { location } });

const MANY = `<!doctype html><html><head><title>Many</title><meta property="og:image" content="/og.jpg"></head><body>
${Array.from({ length: 60 }, (_, i) => `<img src="/photos/${i + 1}.jpg" width="600" height="800" alt="Photo ${i + 1}">`).join("\n")}
</body></html>`;

const RELATIVE = `<!doctype html>
<html><head>
<title>  Weeknight noodles &amp; greens </title>
<meta name="description" content="Ready in 20 minutes &mdash; or less.">
<link rel="canonical" href="/recipes/noodles/">
<meta property="og:image" content="https://cdn.fixture.example/og/noodles.jpg">
<meta property="og:image:width" content="1200"><meta property="og:image:height" content="630">
<meta property="og:image:alt" content="A bowl of noodles">
<link rel="image_src" href="share.jpg">
</head><body>
<img src="bowl.jpg" alt="Bowl" width="640" height="960">
<img src="../chopsticks.png" alt="Chopsticks">
<img src="/img/greens.webp?w=1&amp;h=2" alt="Greens">
<img src="//static.fixture.example/steam.jpg" alt="Steam">
<img src="small.jpg" srcset="small.jpg 320w, large.jpg 1280w" width="320" height="480" alt="Responsive">
<img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=" data-src="lazy.jpg" alt="Lazy">
<img src="data:image/png;base64,iVBORw0KGgo=" alt="Inline">
<img src="spacer.gif" width="1" height="1" alt="">
<img src="bowl.jpg" alt="Bowl again">
<svg><title>Icon title</title></svg>
</body></html>`;

const BLOCKED = `<!doctype html><html><head><title>Mixed</title>
<link rel="canonical" href="https://spam.blocked.example/mixed">
</head><body>
<img src="https://blocked.example/a.jpg" alt="On the blocked host">
<img src="https://ads.blocked.example/b.jpg" alt="On its subdomain">
<img src="https://fine.fixture.example/c.jpg" alt="Allowed">
<img src="/d.jpg" alt="Own host">
</body></html>`;

const HUGE = `<!doctype html><html><head><title>Huge</title></head><body>
<img src="/first.jpg" alt="Before the limit">
${"<p>filler</p>".repeat(Math.ceil(1_500_000 / 13))}
<img src="/after.jpg" alt="After the limit">
</body></html>`;

const hits = new Map<string, number>();

function site(url: URL): Response {
  const path = url.pathname;
  hits.set(path, (hits.get(path) ?? 0) + 1);
  switch (path) {
    case "/many":
      return html(MANY);
    case "/relative/page.html":
      return html(RELATIVE);
    case "/blocked":
      return html(BLOCKED);
    case "/redirect-to-page":
      return redirect(`${FIXTURE_SITE}/relative/page.html`, 301);
    case "/redirect-private":
      return redirect("http://127.0.0.1/admin");
    case "/redirect-decimal":
      return redirect("http://2130706433/");
    case "/redirect-mapped":
      return redirect("http://[::ffff:169.254.169.254]/latest/meta-data/");
    case "/redirect-loop":
      return redirect("/redirect-loop");
    case "/huge":
      return html(HUGE);
    case "/utf16":
      return new Response(new Uint8Array([0xff, 0xfe, 0x3c, 0x00, 0x68, 0x00]), { headers: { "content-type": "text/html; charset=utf-16" } });
    case "/data.json":
      return new Response(JSON.stringify({ images: ["/a.jpg"] }), { headers: { "content-type": "application/json" } });
    case "/counted":
      return html(`<html><head><title>Counted</title></head><body><img src="/counted.jpg" alt="Counted"></body></html>`);
    case "/slow":
      return new Response(
        new ReadableStream<Uint8Array>({
          start(controller) {
            controller.enqueue(new TextEncoder().encode("<!doctype html><html><head><title>Slow</title>"));
          },
        }),
        { headers: { "content-type": "text/html" } },
      );
    case "/__hits/counted":
      return new Response(String(hits.get("/counted") ?? 0));
    case "/images/photo.png":
      return new Response(Buffer.from(PNG_2X2, "base64"), { headers: { "content-type": "image/png" } });
    case "/images/not-image.jpg":
      return new Response("<html>not a picture</html>", { headers: { "content-type": "image/jpeg" } });
    case "/redirect-image-private":
      return redirect("http://10.0.0.5/photo.png");
    default:
      return html("<h1>Not found</h1>", 404);
  }
}

/** The outbound handler: the fixture site by host, anything else refused without a network. */
export function fixtureSites(request: Request): Response {
  const url = new URL(request.url);
  if (url.origin === FIXTURE_SITE) return site(url);
  return new Response(`No network in the Worker tests: ${url.host}`, { status: 599 });
}
