// Types of scripts/bundle.mjs for the TypeScript that imports it (the platform bench).
export declare const ROOT: string;
export declare const EMBEDDED_NODE_FLAGS: string[];
export declare function bundle(entry: string, outfile: string): Promise<string>;
