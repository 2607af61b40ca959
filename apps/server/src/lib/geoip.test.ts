import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { addressKind, defaultCountryDbPath, locateIp, locationLabel, openGeoDb } from './geoip.js';
import { describeUserAgent } from './user-agent.js';

describe('the offline IP database', () => {
  it('locates public IPv4, IPv6 and IPv4-mapped addresses from the bundled DB-IP country file', () => {
    expect(locateIp(undefined, '8.8.8.8')).toEqual({ countryCode: 'US', city: null });
    expect(locateIp(undefined, '::ffff:81.2.69.142')).toEqual({ countryCode: 'GB', city: null });
    expect(locateIp(undefined, '193.51.24.1').countryCode).toBe('FR');
    expect(locateIp(undefined, '2001:4860:4860::8888').countryCode).toMatch(/^[A-Z]{2}$/);
    expect(locationLabel('8.8.8.8', 'US', null)).toBe('United States');
    expect(locationLabel('8.8.8.8', 'US', 'Mountain View')).toBe('Mountain View, United States');
  });

  it('says where private and loopback addresses are without a lookup', () => {
    for (const ip of ['127.0.0.1', '::1', '::ffff:127.0.0.1']) {
      expect(addressKind(ip)).toBe('loopback');
      const where = locateIp(undefined, ip);
      expect(where).toEqual({ countryCode: null, city: null });
      expect(locationLabel(ip, where.countryCode, where.city)).toBe('This machine');
    }
    for (const ip of ['10.1.2.3', '192.168.0.10', '172.16.5.4', 'fd00::1', '100.64.0.1', '169.254.1.1']) {
      expect(addressKind(ip)).toBe('private');
      expect(locateIp(undefined, ip)).toEqual({ countryCode: null, city: null });
      expect(locationLabel(ip, null, null)).toBe('Private network');
    }
    expect(locationLabel('not-an-ip', null, null)).toBe('Unknown');
  });

  it('reads the file named by GEOIP_CITY_DB, and refuses a missing one at start', () => {
    const config = loadConfig({ GEOIP_CITY_DB: defaultCountryDbPath() } as NodeJS.ProcessEnv);
    expect(config.geoipCityDb).toBe(defaultCountryDbPath());
    expect(locateIp(config.geoipCityDb, '8.8.8.8').countryCode).toBe('US');
    expect(() => openGeoDb('/nonexistent/GeoLite2-City.mmdb')).toThrow(/ENOENT/);
  });
});

describe('user agents', () => {
  it('reads as browser and OS', () => {
    expect(describeUserAgent('Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36')).toBe('Chrome 131 on Windows 10');
    expect(describeUserAgent('Mozilla/5.0 (Macintosh; Intel Mac OS X 10.15; rv:133.0) Gecko/20100101 Firefox/133.0')).toMatch(/^Firefox 133 on macOS/);
    expect(describeUserAgent('')).toBe('Unknown device');
  });
});
