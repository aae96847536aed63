// The text filters the message Logs and the message DLQ have in common: the same query parameters of the
// message API, so the same label and example on both screens. Each screen lists the ones it shows, in its order.
export const MESSAGE_TEXT_FILTERS = {
  messageId: { key: 'messageId', label: 'Message id', placeholder: 'msg_…' },
  url: { key: 'url', label: 'URL', placeholder: 'https://…, …', wide: true },
  topicName: { key: 'topicName', label: 'URL group', placeholder: 'orders' },
  queueName: { key: 'queueName', label: 'Queue', placeholder: 'emails' },
  label: { key: 'label', label: 'Label', placeholder: 'nightly, …' },
} as const;

/** Where the message was sent (its URL, URL group or queue): one group, in this order, on both screens. */
export const MESSAGE_DESTINATION_FILTERS = [
  MESSAGE_TEXT_FILTERS.url,
  MESSAGE_TEXT_FILTERS.topicName,
  MESSAGE_TEXT_FILTERS.queueName,
] as const;
