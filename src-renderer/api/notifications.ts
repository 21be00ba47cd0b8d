// The notification outbox (console API): signature requests and reminders, newest first.
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { Notification, Page } from '@shared/api-types.js';
import { consoleApi, PAGE_SIZE } from './client.js';
import { notificationKeys, type NotificationFilter } from './keys.js';

export const notificationsQuery = (f: NotificationFilter) =>
  queryOptions({
    queryKey: notificationKeys.list(f),
    queryFn: ({ signal }) => consoleApi<Page<Notification>>('/notifications', { signal, query: { ...f, limit: PAGE_SIZE } }),
    placeholderData: keepPreviousData,
  });
