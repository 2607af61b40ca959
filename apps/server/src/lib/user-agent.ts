import Bowser from 'bowser';

/** A user agent as people read it: "Chrome 131 on Windows 10", "Safari on iOS 17.2", or "Unknown device". */
export function describeUserAgent(ua: string): string {
  if (!ua.trim()) return 'Unknown device';
  const parsed = Bowser.parse(ua);
  const major = parsed.browser.version?.split('.')[0];
  const browser = parsed.browser.name ? `${parsed.browser.name}${major ? ` ${major}` : ''}` : null;
  const osVersion = parsed.os.versionName ?? parsed.os.version;
  const os = parsed.os.name ? `${parsed.os.name}${osVersion ? ` ${osVersion}` : ''}` : null;
  if (browser && os) return `${browser} on ${os}`;
  return browser ?? os ?? ua.slice(0, 60);
}
