/**
 * Declaration-only stand-in for src/runtime/mrtr-continuation.ts (written by another helper), used
 * by the fixture type-check until the real file exists. Delete once the runtime lands.
 */
import type { ServerContext } from '@modelcontextprotocol/server';

export interface Bind {
  readonly name: string;
  readonly digest: string;
}

export type ElicitAnswer =
  | { action: 'accept'; content: Record<string, string | number | boolean | string[]> }
  | { action: 'decline'; content?: undefined }
  | { action: 'cancel'; content?: undefined };

export declare function bindRequest(ctx: ServerContext, name: string, args: unknown): Bind;

export declare const continuation: {
  seal(ctx: ServerContext, payload: { step: string; bind: Bind; [carried: string]: unknown }): Promise<string>;
  open<T extends { step: string }>(ctx: ServerContext, bind: Bind): Promise<T | undefined>;
};

export declare function elicitationAnswer(responses: unknown, key: string, requestedSchema: unknown): ElicitAnswer | undefined;

export declare function rootsFromConfig(): { roots: { uri: string; name?: string }[] };
