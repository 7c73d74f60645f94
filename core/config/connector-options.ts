// Where core/app/index-host.ts reads a configured connector's checked table from; the check itself is
// configured-sections.ts's, with the plugin's other sections (ADR 0248).
export { checkedConnectorOptions } from './configured-sections.ts';
