import '@mantine/spotlight/styles.css';
import { Badge, Group, Loader, Text } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { Spotlight, spotlight } from '@mantine/spotlight';
import { accessFor, isSuperAdmin, recordPath, RESOURCES, visibleSidebar, type AdminDetail, type ResourceSpec } from '@pitboss/contract';
import { IconArrowRight, IconSearch } from '@tabler/icons-react';
import { useEffect, useMemo, useState } from 'react';
import { useNavigate } from 'react-router';
import { fetchList, type ResourceRecord } from '../resources/api';

/**
 * Records the palette searches, in this order: each through its own list endpoint (`?q=`), so the
 * server's access checks are the ones of the list page, and only when the admin may view it.
 * A module adds its resource here when its records are worth jumping to.
 */
export const PALETTE_RESOURCES = ['users', 'markets', 'events', 'series', 'sub-admins', 'coins', 'tags'] as const;
const PER_RESOURCE = 5;

interface Found {
  spec: ResourceSpec;
  records: ResourceRecord[];
}

/** What a record shows under its title: the first other text columns that have a value. */
function describe(spec: ResourceSpec, record: ResourceRecord): string {
  return spec.columns
    .filter((c) => c.key !== spec.titleField && (c.type === 'text' || c.type === 'code'))
    .map((c) => record[c.key])
    .filter((v): v is string => typeof v === 'string' && v.length > 0)
    .slice(0, 2)
    .join(' · ');
}

/**
 * Ctrl/⌘+K: every page the admin may view, and (from two characters on) records of the
 * resources above. Loaded after the shell, in its own chunk.
 */
export default function CommandPalette({ admin }: { admin: AdminDetail }) {
  const navigate = useNavigate();
  const [query, setQuery] = useState('');
  const [debounced] = useDebouncedValue(query, 250);
  const [found, setFound] = useState<Found[]>([]);
  const [searching, setSearching] = useState(false);

  const pages = useMemo(() => visibleSidebar(admin), [admin]);
  const searchable = useMemo(
    () => PALETTE_RESOURCES.map((name) => RESOURCES[name]).filter((spec): spec is ResourceSpec => !!spec && (spec.restriction === null ? isSuperAdmin(admin) : accessFor(admin, spec.restriction).canView)),
    [admin],
  );

  useEffect(() => {
    const q = debounced.trim();
    if (q.length < 2 || searchable.length === 0) {
      setFound([]);
      setSearching(false);
      return;
    }
    const abort = new AbortController();
    setSearching(true);
    // Each module's answer shows as it arrives: one slow list does not hold the others back.
    setFound([]);
    let pending = searchable.length;
    for (const spec of searchable) {
      fetchList(spec, { q, limit: String(PER_RESOURCE) }, abort.signal)
        .then((list) => {
          if (abort.signal.aborted || list.items.length === 0) return;
          setFound((prev) => [...prev.filter((x) => x.spec.name !== spec.name), { spec, records: list.items }].sort((x, y) => searchable.indexOf(x.spec) - searchable.indexOf(y.spec)));
        })
        // One module failing (a right taken away meanwhile) leaves the others.
        .catch(() => undefined)
        .finally(() => {
          pending -= 1;
          if (pending === 0 && !abort.signal.aborted) setSearching(false);
        });
    }
    return () => abort.abort();
  }, [debounced, searchable]);

  const needle = query.trim().toLowerCase();
  const matchingPages = pages.filter((p) => !needle || `${p.label} ${p.group} ${p.path}`.toLowerCase().includes(needle)).slice(0, needle ? 12 : 8);
  const go = (to: string) => {
    spotlight.close();
    void navigate(to);
  };

  return (
    // The query is cleared as the palette closes, not by Mantine's clearQueryOnClose: that runs at
    // the end of the closing animation, and an admin who reopened within it (Ctrl+K right after
    // picking a page) had what they typed wiped a moment later. (Clearing on open races the typing.)
    <Spotlight.Root query={query} onQueryChange={setQuery} onSpotlightClose={() => setQuery('')} shortcut={null} scrollable maxHeight={480} clearQueryOnClose={false}>
      <Spotlight.Search placeholder="Go to a page or find a record…" leftSection={<IconSearch size={18} />} rightSection={searching ? <Loader size="xs" /> : null} aria-label="Search pages and records" />
      <Spotlight.ActionsList>
        {matchingPages.length > 0 ? (
          <Spotlight.ActionsGroup label="Pages">
            {matchingPages.map((p) => (
              <Spotlight.Action key={p.path} onClick={() => go(p.path)} leftSection={<IconArrowRight size={16} />} label={p.label} description={p.group === p.label ? undefined : p.group} />
            ))}
          </Spotlight.ActionsGroup>
        ) : null}
        {found.map(({ spec, records }) => (
          <Spotlight.ActionsGroup key={spec.name} label={spec.plural}>
            {records.map((r) => {
              const title = String(r[spec.titleField] ?? `#${r._id}`);
              const page = spec.recordPage ?? spec.pages.update;
              const to = page ? recordPath(page, r._id) : `${spec.pages.list}?q=${encodeURIComponent(query.trim())}`;
              return (
                <Spotlight.Action key={`${spec.name}:${r._id}`} onClick={() => go(to)}>
                  <Group wrap="nowrap" w="100%" justify="space-between">
                    <div style={{ minWidth: 0 }}>
                      <Text size="sm" truncate>
                        {title}
                      </Text>
                      <Text size="xs" c="dimmed" truncate>
                        {describe(spec, r)}
                      </Text>
                    </div>
                    <Badge size="xs" variant="light">
                      {spec.label}
                    </Badge>
                  </Group>
                </Spotlight.Action>
              );
            })}
          </Spotlight.ActionsGroup>
        ))}
        {matchingPages.length === 0 && found.length === 0 ? (
          <Spotlight.Empty>{searching ? 'Searching…' : needle.length >= 2 ? 'Nothing found' : 'Type to search'}</Spotlight.Empty>
        ) : null}
      </Spotlight.ActionsList>
    </Spotlight.Root>
  );
}

/** The layout's Ctrl/⌘+K (it works before this chunk has loaded): opens, or closes when open. */
export const toggleCommandPalette = () => spotlight.toggle();
export const openCommandPalette = () => spotlight.open();
