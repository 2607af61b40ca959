import type { Db } from '../../db/client.js';
import { intervalJob } from '../../lib/interval-job.js';
import { runRewardGrants } from './service.js';

/** Grants reward cards every `intervalMs` (default 30 s; one instance per tick: advisory lock). Returns a stop function. */
export function startRewardGrants(opts: { db: Db; log: { warn: (o: object, m: string) => void }; intervalMs?: number }): () => Promise<void> {
  return intervalJob(
    async () => {
      const report = await runRewardGrants(opts.db);
      for (const f of report?.failed ?? []) opts.log.warn({ rewardCardId: f.rewardCardId, err: f.error }, 'reward card could not be granted');
    },
    { name: 'reward_grants', intervalMs: opts.intervalMs ?? 30_000, onError: (err) => opts.log.warn({ err: err.message }, 'reward grant tick failed') },
  );
}
