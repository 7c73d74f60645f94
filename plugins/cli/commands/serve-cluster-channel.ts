// The cli plugin's `ClusterPrimary` and `ClusterWorker` (api.ts, ADR 0226): questions by topic between the processes
// of `[server] workers` over node:cluster's IPC channel. A worker asks the primary (`ask`); the primary asks every
// worker (`gather`). Answers that do not come in time are left out (gather) or refused as `unavailable` (ask), so a
// worker that is restarting never hangs a request.
import type { Worker } from 'node:cluster';
import { configError, KbctxError } from '../../../core/api/plugin.ts';
import type { ClusterPrimary, ClusterWorker } from '../api.ts';

const GATHER_MS = 5_000;
const ASK_MS = 10_000;

type Answerer = (body: unknown) => Promise<unknown>;
interface Question {
  type: 'kbctx-cluster-ask' | 'kbctx-cluster-gather';
  id: number;
  topic: string;
  body: unknown;
}
interface Answer {
  type: 'kbctx-cluster-answer' | 'kbctx-cluster-gathered';
  id: number;
  value?: unknown;
  error?: string;
}

/** One answerer per topic, and the answer (or its error's message) to a question. */
function answerers(): {
  add(topic: string, answer: Answerer): void;
  reply(q: Question): Promise<Omit<Answer, 'type'>>;
} {
  const byTopic = new Map<string, Answerer>();
  return {
    add(topic, answer) {
      if (byTopic.has(topic)) throw configError(`cluster topic '${topic}' has an answerer already`);
      byTopic.set(topic, answer);
    },
    async reply({ id, topic, body }) {
      const answer = byTopic.get(topic);
      if (!answer) return { id, error: `nothing answers '${topic}' in this process` };
      try {
        return { id, value: await answer(body) };
      } catch (error) {
        return { id, error: (error as Error).message };
      }
    },
  };
}

/** The primary's side; `attach` each forked worker. */
export function clusterPrimary(workers: () => Iterable<Worker | undefined>): {
  channel: ClusterPrimary;
  attach(worker: Worker): void;
} {
  const answers = answerers();
  let next = 1;
  const gathering = new Map<number, (answer: Answer) => void>();
  return {
    channel: {
      answer: (topic, answer) => answers.add(topic, answer),
      gather(topic, body) {
        const id = next++;
        const asked = [...workers()].filter((w): w is Worker => w?.isConnected() === true);
        const values: unknown[] = [];
        return new Promise((resolve) => {
          let left = asked.length;
          const done = (): void => {
            clearTimeout(timer);
            gathering.delete(id);
            resolve(values);
          };
          const timer = setTimeout(done, GATHER_MS).unref();
          gathering.set(id, (answer) => {
            if (answer.error === undefined) values.push(answer.value);
            if (--left === 0) done();
          });
          for (const w of asked) w.send({ type: 'kbctx-cluster-gather', id, topic, body } satisfies Question);
          if (left === 0) done();
        });
      },
    },
    attach(worker) {
      worker.on('message', (message: Question | Answer) => {
        if (message?.type === 'kbctx-cluster-gathered') gathering.get(message.id)?.(message);
        if (message?.type !== 'kbctx-cluster-ask') return;
        void answers.reply(message).then((answer) => {
          if (worker.isConnected()) worker.send({ type: 'kbctx-cluster-answer', ...answer } satisfies Answer);
        });
      });
    },
  };
}

/** A worker's side (this process talks to its primary through process.send). */
export function clusterWorker(): ClusterWorker {
  const answers = answerers();
  let next = 1;
  const waiting = new Map<number, (answer: Answer) => void>();
  process.on('message', (message: Question | Answer) => {
    if (message?.type === 'kbctx-cluster-answer') waiting.get(message.id)?.(message);
    if (message?.type !== 'kbctx-cluster-gather') return;
    void answers.reply(message).then((answer) => {
      if (process.connected) process.send?.({ type: 'kbctx-cluster-gathered', ...answer } satisfies Answer);
    });
  });
  return {
    answerGather: (topic, answer) => answers.add(topic, answer),
    ask(topic, body) {
      const id = next++;
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          waiting.delete(id);
          reject(new KbctxError('unavailable', `the primary did not answer '${topic}' within ${ASK_MS / 1000} s`));
        }, ASK_MS).unref();
        waiting.set(id, (answer) => {
          clearTimeout(timer);
          waiting.delete(id);
          if (answer.error === undefined) resolve(answer.value);
          else reject(new KbctxError('unavailable', `the primary could not answer '${topic}': ${answer.error}`));
        });
        process.send?.({ type: 'kbctx-cluster-ask', id, topic, body } satisfies Question);
      });
    },
  };
}
