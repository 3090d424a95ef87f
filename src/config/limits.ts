// Every limit Faultline enforces, in one place (this folder), each with its unit and the reason for its value.
export * from "./limits/accounts";
export * from "./limits/alerts";
export * from "./limits/digest";
export * from "./limits/ingest";
export * from "./limits/releases";
export * from "./limits/web";
export * from "./limits/privacy";
export * from "./limits/operations";
export * from "./limits/cluster";
export * from "./limits/monitors";
export * from "./limits/feedback";
export * from "./limits/attachments";
export * from "./limits/logs";
