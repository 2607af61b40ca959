import type { ResourceSpec } from '@pitboss/contract';
import type { ComponentType } from 'react';
import type { ResourceRecord } from '../api';
import { SubAdminActions } from './SubAdminActions';

export interface RecordActionsProps {
  spec: ResourceSpec;
  id: string;
  record: ResourceRecord | undefined;
}

/**
 * Actions a resource adds to its update page next to the generated form
 * (shown to admins who may edit). A resource with none needs no entry: the
 * declaration alone gives it its pages.
 */
export const RECORD_ACTIONS: Partial<Record<string, ComponentType<RecordActionsProps>>> = {
  'sub-admins': SubAdminActions,
};
