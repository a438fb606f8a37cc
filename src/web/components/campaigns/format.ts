const count = new Intl.NumberFormat('en-US');
const percent = new Intl.NumberFormat('en-US', { style: 'percent', maximumFractionDigits: 1 });

/** 12,345 */
export const formatCount = (value: number) => count.format(value);

/** A share from 0 to 1 as 12.3% */
export const formatRate = (share: number) => percent.format(share);

/** '1 recipient', '1,234 recipients' */
export const recipientsText = (recipients: number) =>
  `${formatCount(recipients)} ${recipients === 1 ? 'recipient' : 'recipients'}`;

/** '1 new recipient', '1,234 new recipients' */
const newRecipientsText = (recipients: number) =>
  `${formatCount(recipients)} new ${recipients === 1 ? 'recipient' : 'recipients'}`;

/** Whom a send reaches: its recipients, called new when an earlier send reached others. */
export const reachText = ({
  recipients,
  alreadyReceived,
}: {
  recipients: number;
  alreadyReceived: number;
}) => (alreadyReceived > 0 ? newRecipientsText(recipients) : recipientsText(recipients));
