export class Panel {
  @Input() name: string;

  @HostListener('click', ['$event']) onClick(e: Event) {
    this.open = !this.open;
  }

  on(event: string, handler: (e: Event) => void): void {
    this.h.push(handler);
  }
}
