// The conversion tag's script, as the Worker serves it at /ct/{tagId}.js (docs/decisions.md,
// "Conversion tag"). It runs on the advertiser's site, so it is small, plain ES2017 written by
// hand (no bundler: every byte is downloaded by the advertiser's visitors), and it keeps nothing
// in the visitor's browser unless the page says marketing consent was given.
//
// The page's API, queued before the script loads by the snippet's stub:
//   pintrk('init', {consent: true|false, test: true|false})
//   pintrk('track', 'add_to_cart' | 'checkout' | 'lead' | 'signup', {event_id, value, currency, order_quantity, em})
// A page visit is reported on load by itself. Events leave together, at most TAG_LIMITS.maxBatch
// a request, as text/plain (a CORS simple request: no preflight) with no credentials, so no
// cookie of ours is sent or set on the advertiser's visitors.
import { TAG_LIMITS } from "./tag.ts";

/** The first-party cookie (on the advertiser's site) that keeps the click id, only with consent. */
const TAG_CLICK_COOKIE = "_pinloom_epik";
/** The landing URL's parameter that carries a promoted pin's click id. */
const CLICK_ID_PARAMETER = "epik";
/** A click id is kept a week: the click attribution window. */
const CLICK_COOKIE_MAX_AGE_S = 7 * 86_400;

/** The script for one tag, posting to `endpoint` (an absolute URL). */
export function tagScript(endpoint: string): string {
  return `/* Pinloom conversion tag */
(function(w,d){
var E=${JSON.stringify(endpoint)},K="${TAG_CLICK_COOKIE}",R=/^(0|[1-9]\\d{0,19})$/,q=[],o={},t=0,s=w.pintrk,c=null;
try{c=new URLSearchParams(location.search).get("${CLICK_ID_PARAMETER}")}catch(e){}
if(c&&!R.test(c))c=null;
function n(){try{return crypto.randomUUID()}catch(e){return Date.now().toString(36)+"-"+Math.random().toString(36).slice(2)}}
function m(){var r=d.cookie.match(/(?:^|; )${TAG_CLICK_COOKIE}=(\\d+)/);return r&&R.test(r[1])?r[1]:null}
function f(){t=0;while(q.length){var b=JSON.stringify({events:q.splice(0,${TAG_LIMITS.maxBatch})});try{fetch(E,{method:"POST",body:b,keepalive:true,credentials:"omit",mode:"cors",headers:{"Content-Type":"text/plain"}}).catch(function(){})}catch(e){}}}
function k(x,p){p=p||{};var e={event_name:String(x),event_id:String(p.event_id||n())},i,y=["value","currency","order_quantity","em"];
for(i=0;i<y.length;i++)if(p[y[i]]!=null)e[y[i]]=p[y[i]];
var id=c||(o.consent?m():null);if(id)e.click_id=id;
if(o.test||p.is_test)e.is_test=true;
q.push(e);if(!t)t=setTimeout(f,0)}
function a(x,y,z){
if(x==="init"){o=y||{};
if(o.consent&&c)d.cookie=K+"="+c+";Max-Age=${CLICK_COOKIE_MAX_AGE_S};Path=/;SameSite=Lax"+(location.protocol==="https:"?";Secure":"");
else if(!o.consent&&m())d.cookie=K+"=;Max-Age=0;Path=/"}
else if(x==="track")k(y,z)}
var p=(s&&s.q)||[],i;w.pintrk=a;
for(i=0;i<p.length;i++)a.apply(null,p[i]);
k("page_visit");
w.addEventListener("pagehide",f)
})(window,document);
`;
}

/** The snippet an advertiser pastes into every page, loading the tag from `scriptUrl`. */
export function tagSnippet(scriptUrl: string): string {
  return `<script>
window.pintrk=window.pintrk||function(){(window.pintrk.q=window.pintrk.q||[]).push(arguments)};
pintrk('init', {consent: false});
</script>
<script async src="${scriptUrl}"></script>`;
}
