export declare const keySql: (mark: (i: number) => string) => string;
export declare const upsertSql: (mark: (i: number) => string) => string;
