import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { outerColumn } from '../../db/bulk.js';
import type { DbOrTx } from '../../db/client.js';
import { badRequest, conflict } from '../../http/errors.js';
import { eventTags } from '../events/table.js';
import { seriesTags } from '../series/table.js';
import { tags } from './table.js';

/**
 * Tags are linked many-to-many: events (event_tags) and series (series_tags). The links are written
 * with the record in its transaction; a tag in use cannot be deleted (409 here, RESTRICT in the
 * database as the last word); an inactive tag stays on what it is linked to but cannot be added.
 */
const LINKS = {
  events: { table: eventTags, owner: eventTags.eventId, tag: eventTags.tagId },
  series: { table: seriesTags, owner: seriesTags.seriesId, tag: seriesTags.tagId },
} as const;
export type TagOwner = keyof typeof LINKS;

/**
 * Sets the tags of one event or series to exactly `tagIds` (ids as the API sends them). Unknown
 * tags and newly added inactive ones are refused (400 on `tagIds`). True when the links changed.
 */
export async function setTagLinks(tx: DbOrTx, owner: TagOwner, ownerId: number, tagIds: readonly string[]): Promise<boolean> {
  const link = LINKS[owner];
  const wanted = [...new Set(tagIds.map(Number))];
  const current = (await tx.select({ tagId: link.tag }).from(link.table).where(eq(link.owner, ownerId))).map((r) => r.tagId);
  const added = wanted.filter((id) => !current.includes(id));
  const removed = current.filter((id) => !wanted.includes(id));
  if (added.length === 0 && removed.length === 0) return false;
  if (added.length) {
    // FOR SHARE: a tag cannot be deleted while it is being linked.
    const found = await tx.select({ id: tags.id, name: tags.name, status: tags.status }).from(tags).where(inArray(tags.id, added)).for('share');
    const missing = added.filter((id) => !found.some((t) => t.id === id));
    if (missing.length) throw badRequest('Unknown tag', { tagIds: `No tag #${missing.join(', #')}` });
    const inactive = found.filter((t) => t.status !== 'active');
    if (inactive.length) throw badRequest('Inactive tag', { tagIds: `${inactive.map((t) => t.name).join(', ')} ${inactive.length === 1 ? 'is' : 'are'} inactive` });
    await tx.insert(link.table).values(added.map((tagId) => ({ [owner === 'events' ? 'eventId' : 'seriesId']: ownerId, tagId }) as never));
  }
  if (removed.length) await tx.delete(link.table).where(and(eq(link.owner, ownerId), inArray(link.tag, removed)));
  return true;
}

/**
 * Tag ids and names of a record, as two text arrays in the same (name) order, for the list's SELECT.
 * `ownerId` is the owning table's id column.
 */
export function tagColumns(owner: TagOwner, ownerId: AnyPgColumn): { tagIds: SQL<string[]>; tags: SQL<string[]> } {
  const link = LINKS[owner];
  const from = sql`from ${link.table} l join ${tags} t on t.id = l.tag_id where l.${sql.identifier(owner === 'events' ? 'event_id' : 'series_id')} = ${outerColumn(ownerId)}`;
  return {
    tagIds: sql<string[]>`array(select t.id::text ${from} order by t.name, t.id)`,
    tags: sql<string[]>`array(select t.name ${from} order by t.name, t.id)`,
  };
}

/** The `tags` filter: records linked to a tag given by slug, name (any case) or id. */
export function tagFilter(owner: TagOwner, ownerId: AnyPgColumn): (value: string) => SQL {
  const link = LINKS[owner];
  const column = sql.identifier(owner === 'events' ? 'event_id' : 'series_id');
  return (value) => {
    const byId = /^\d{1,18}$/.test(value) ? sql` or t.id = ${Number(value)}` : sql``;
    return sql`exists (select 1 from ${link.table} l join ${tags} t on t.id = l.tag_id where l.${column} = ${outerColumn(ownerId)}
      and (t.slug = lower(${value}) or lower(t.name) = lower(${value})${byId}))`;
  };
}

/** Refuses to delete tags still linked to events or series, naming how many of each. */
export async function assertTagsUnused(tx: DbOrTx, tagIds: number[]): Promise<void> {
  if (tagIds.length === 0) return;
  const [events] = await tx.select({ n: sql<number>`count(distinct ${eventTags.eventId})::int` }).from(eventTags).where(inArray(eventTags.tagId, tagIds));
  const [series] = await tx.select({ n: sql<number>`count(distinct ${seriesTags.seriesId})::int` }).from(seriesTags).where(inArray(seriesTags.tagId, tagIds));
  const uses = [
    events!.n ? `${events!.n} event${events!.n === 1 ? '' : 's'}` : null,
    series!.n ? `${series!.n} series` : null,
  ].filter(Boolean);
  if (uses.length === 0) return;
  const what = tagIds.length === 1 ? 'This tag is' : 'These tags are';
  throw conflict(`${what} used by ${uses.join(' and ')}: remove ${tagIds.length === 1 ? 'it' : 'them'} there first, or set ${tagIds.length === 1 ? 'it' : 'them'} inactive`);
}
