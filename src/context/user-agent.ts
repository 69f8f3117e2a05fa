// User-agent facts of spec 000 §3 (request context → userAgent). Deliberately small:
// the product needs platform, version, device class and browser, not a full UA database.

export interface UserAgentFacts {
  browserName: string;
  browserVersion: string;
  browserType: "desktop" | "mobile" | "tablet" | "bot";
  isMobile: boolean;
  isTablet: boolean;
  canUseNativeApp: boolean;
  platform: "android" | "ios" | "windows" | "macos" | "linux" | "chromeos" | "other";
  /** Major, minor, patch of the OS version; 0,0,0 when unknown. */
  platformVersion: [number, number, number];
  osName: string;
  raw: string;
}

const MAX_UA_LENGTH = 512;

function versionTriple(text: string | undefined): [number, number, number] {
  if (!text) return [0, 0, 0];
  const parts = text.split(/[._]/).slice(0, 3).map((part) => {
    const value = Number.parseInt(part, 10);
    return Number.isFinite(value) && value >= 0 ? value : 0;
  });
  return [parts[0] ?? 0, parts[1] ?? 0, parts[2] ?? 0];
}

function detectPlatform(ua: string): Pick<UserAgentFacts, "platform" | "platformVersion" | "osName"> {
  let match: RegExpExecArray | null;
  if ((match = /Android[ /]?([\d.]+)?/i.exec(ua))) {
    return { platform: "android", platformVersion: versionTriple(match[1]), osName: "Android" };
  }
  if ((match = /(?:iPhone|iPad|iPod)[^)]*?OS ([\d_]+)/i.exec(ua))) {
    return { platform: "ios", platformVersion: versionTriple(match[1]), osName: "iOS" };
  }
  if (/iPhone|iPad|iPod/i.test(ua)) return { platform: "ios", platformVersion: [0, 0, 0], osName: "iOS" };
  if ((match = /Windows NT ([\d.]+)/i.exec(ua))) {
    return { platform: "windows", platformVersion: versionTriple(match[1]), osName: "Windows" };
  }
  if (/CrOS/.test(ua)) {
    match = /CrOS \S+ ([\d.]+)/.exec(ua);
    return { platform: "chromeos", platformVersion: versionTriple(match?.[1]), osName: "Chrome OS" };
  }
  if ((match = /Mac OS X ([\d_.]+)/i.exec(ua))) {
    return { platform: "macos", platformVersion: versionTriple(match[1]), osName: "Mac OS" };
  }
  if (/Macintosh/i.test(ua)) return { platform: "macos", platformVersion: [0, 0, 0], osName: "Mac OS" };
  if (/Linux|X11/i.test(ua)) return { platform: "linux", platformVersion: [0, 0, 0], osName: "Linux" };
  return { platform: "other", platformVersion: [0, 0, 0], osName: "Other" };
}

const BROWSERS: ReadonlyArray<[name: string, pattern: RegExp]> = [
  ["Edge", /Edg(?:e|A|iOS)?\/([\d.]+)/],
  ["Samsung Internet", /SamsungBrowser\/([\d.]+)/],
  ["Opera", /(?:OPR|Opera)\/([\d.]+)/],
  ["Firefox", /(?:Firefox|FxiOS)\/([\d.]+)/],
  ["Chrome", /(?:Chrome|CriOS|Chromium)\/([\d.]+)/],
  ["Safari", /Version\/([\d.]+).*Safari/],
];

export function parseUserAgent(input: string | null | undefined, isBot = false): UserAgentFacts {
  const raw = (input ?? "").slice(0, MAX_UA_LENGTH);
  const { platform, platformVersion, osName } = detectPlatform(raw);
  const isTablet = /iPad|Tablet|PlayBook|Silk/i.test(raw) || (platform === "android" && !/Mobile/i.test(raw));
  const isMobile = !isTablet && (/Mobi|iPhone|iPod|Windows Phone/i.test(raw) || platform === "android");
  let browserName = "Other";
  let browserVersion = "0";
  for (const [name, pattern] of BROWSERS) {
    const match = pattern.exec(raw);
    if (match) {
      browserName = name;
      browserVersion = match[1] ?? "0";
      break;
    }
  }
  const browserType = isBot ? "bot" : isTablet ? "tablet" : isMobile ? "mobile" : "desktop";
  return {
    browserName,
    browserVersion,
    browserType,
    isMobile,
    isTablet,
    canUseNativeApp: !isBot && (platform === "android" || platform === "ios"),
    platform,
    platformVersion,
    osName,
    raw,
  };
}
