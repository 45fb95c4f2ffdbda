// The benches' one statistic: the median (the upper one of an even count).
export const median = (xs: readonly number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
