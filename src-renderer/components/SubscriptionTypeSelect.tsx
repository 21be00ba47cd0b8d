// The choice of what a subscription receives: every event ('all') or one event type,
// in the contract's order. Extra props (the id and aria attributes a Field adds,
// data-autofocus) go to the select itself.
import type { SelectHTMLAttributes } from 'react';
import { EVENT_TYPES, type SubscriptionType } from '@shared/api-types.js';

export type SubscriptionTypeSelectProps = Omit<SelectHTMLAttributes<HTMLSelectElement>, 'value' | 'onChange'> & {
  value: SubscriptionType;
  onChange: (type: SubscriptionType) => void;
};

export function SubscriptionTypeSelect({ value, onChange, ...rest }: SubscriptionTypeSelectProps) {
  return (
    <select {...rest} value={value} onChange={(e) => onChange(e.target.value as SubscriptionType)}>
      <option value="all">all</option>
      {EVENT_TYPES.map((t) => (
        <option key={t} value={t}>
          {t}
        </option>
      ))}
    </select>
  );
}
